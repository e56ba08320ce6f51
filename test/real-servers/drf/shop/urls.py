from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter
from .views import CustomerViewSet, OrderViewSet, WidgetViewSet

router = DefaultRouter()
router.register("widgets", WidgetViewSet, basename="widget")
router.register("customers", CustomerViewSet, basename="customer")
orders = OrderViewSet.as_view({"get": "list", "post": "create"})
order = OrderViewSet.as_view({"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"})
urlpatterns = [
    path("api/v1/auth-token/", obtain_auth_token),
    path("api/v1/customers/<int:customer_pk>/orders/", orders),
    path("api/v1/customers/<int:customer_pk>/orders/<int:pk>/", order),
    path("api/v1/", include(router.urls)),
]
