"""Seeds two users (full and view-only; passwords from DRF_PASSWORD and DRF_LIMITED_PASSWORD),
their tokens, an API key, and a few records. Prints the credentials as shell assignments:
DRF_TOKEN, DRF_LIMITED_TOKEN, DRF_API_KEY."""
import os
from decimal import Decimal
from django.contrib.auth.models import Permission, User
from django.core.management.base import BaseCommand
from rest_framework.authtoken.models import Token
from rest_framework_api_key.models import APIKey
from shop.models import Customer, Order, Widget

class Command(BaseCommand):
    def handle(self, *args, **options):
        admin = User.objects.create_user("admin", password=os.environ.get("DRF_PASSWORD", "admin-pass"))
        reader = User.objects.create_user("reader", password=os.environ.get("DRF_LIMITED_PASSWORD", "reader-pass"))
        admin.user_permissions.set(Permission.objects.filter(content_type__app_label="shop"))
        reader.user_permissions.set(Permission.objects.filter(content_type__app_label="shop", codename__startswith="view_"))
        _, key = APIKey.objects.create_key(name="conformance")
        Widget.objects.create(name="seed-one", price=Decimal("1.50"))
        Widget.objects.create(name="seed-two", price=Decimal("2.00"))
        c = Customer.objects.create(name="Seed", email="seed@example.com")
        Order.objects.create(customer=c, item="seed-item", quantity=1)
        self.stdout.write(f"DRF_TOKEN={Token.objects.create(user=admin).key}\n"
                          f"DRF_LIMITED_TOKEN={Token.objects.create(user=reader).key}\nDRF_API_KEY={key}")
