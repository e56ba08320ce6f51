# A minimal Django REST framework project (Debian's python3-django, python3-djangorestframework,
# python3-djangorestframework-api-key). DRF_AUTH=token (default): "Authorization: Token <key>"
# from POST /api/v1/auth-token/; DRF_AUTH=apikey: "X-API-Key: <key>" (djangorestframework-api-key).
# DRF_DB: the SQLite file (the tests give each server a copy of a seeded one).
import os
import tempfile
BASE_DIR = os.path.dirname(os.path.abspath(__file__))
SECRET_KEY = "test-fixture-only-not-secret"
DEBUG = os.environ.get("DRF_DEBUG") == "1"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.contenttypes", "django.contrib.auth",
    "rest_framework", "rest_framework.authtoken", "rest_framework_api_key", "shop",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
ROOT_URLCONF = "shop.urls"
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.environ.get("DRF_DB", os.path.join(tempfile.gettempdir(), "conformance-drf.sqlite3"))}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
TEMPLATES = []
AUTH = os.environ.get("DRF_AUTH", "token")
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.AnonRateThrottle", "rest_framework.throttling.UserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon": os.environ.get("DRF_RATE", "100/s"), "user": os.environ.get("DRF_RATE", "100/s")},
}
if AUTH == "apikey":
    REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = []
    REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"] = ["rest_framework_api_key.permissions.HasAPIKey"]
    API_KEY_CUSTOM_HEADER = "HTTP_X_API_KEY"
else:
    REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = ["rest_framework.authentication.TokenAuthentication"]
    REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"] = ["rest_framework.permissions.DjangoModelPermissions"]
# A fast hasher for the fixture's random passwords and API keys. Django's default (PBKDF2, 260,000
# rounds) costs about 80 ms of CPU per request in apikey mode, where djangorestframework-api-key
# 2.0 checks the key's hash on every request: the apikey audit took a minute, the token one 12 s.
# What the API answers is the same; only the stored hashes differ.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
