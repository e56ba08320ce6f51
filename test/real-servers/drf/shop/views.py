from django.shortcuts import get_object_or_404
from rest_framework import serializers, viewsets
from .models import Customer, Order, Widget

class WidgetSerializer(serializers.ModelSerializer):
    class Meta:
        model = Widget
        fields = ["id", "name", "price"]

class CustomerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Customer
        fields = ["id", "name", "email"]

class OrderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Order
        fields = ["id", "customer", "item", "quantity"]
        read_only_fields = ["customer"]

class WidgetViewSet(viewsets.ModelViewSet):
    queryset = Widget.objects.order_by("id")
    serializer_class = WidgetSerializer

class CustomerViewSet(viewsets.ModelViewSet):
    queryset = Customer.objects.order_by("id")
    serializer_class = CustomerSerializer

class OrderViewSet(viewsets.ModelViewSet):
    """Orders of one customer: /customers/{customer_pk}/orders/."""
    serializer_class = OrderSerializer

    def get_queryset(self):
        return Order.objects.filter(customer_id=self.kwargs["customer_pk"]).order_by("id")

    def perform_create(self, serializer):
        serializer.save(customer=get_object_or_404(Customer, pk=self.kwargs["customer_pk"]))
