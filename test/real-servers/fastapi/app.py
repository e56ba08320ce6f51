"""Widgets and orders in FastAPI's tutorial style (Debian bookworm's FastAPI 0.92, pydantic 1.10).

Path operations under an APIRouter with the prefix /v1, collections at /widgets/ and items at
/widgets/{id} (as FastAPI routes them), pydantic models for create, update and read, 201 on
create, HTTPException(404) for unknown ids, the OAuth2 password flow (POST /v1/token, a form)
issuing bearer tokens, and a read-only user whose writes are 403. Kept in memory, seeded with one
widget and one order. The users' password comes from FASTAPI_PASSWORD.
"""
import os
import secrets
from typing import Dict, List, Optional

from fastapi import APIRouter, Depends, FastAPI, HTTPException, status
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel, Field


class WidgetIn(BaseModel):
    name: str = Field(min_length=1)
    price: float = Field(gt=0)
    description: Optional[str] = None


class WidgetPatch(BaseModel):
    name: Optional[str] = Field(default=None, min_length=1)
    price: Optional[float] = Field(default=None, gt=0)
    description: Optional[str] = None


class Widget(WidgetIn):
    id: int


class OrderIn(BaseModel):
    widget_id: int
    quantity: int = Field(gt=0)


class OrderPatch(BaseModel):
    widget_id: Optional[int] = None
    quantity: Optional[int] = Field(default=None, gt=0)


class Order(OrderIn):
    id: int


class Token(BaseModel):
    access_token: str
    token_type: str


PASSWORD = os.environ["FASTAPI_PASSWORD"]
USERS = {"admin": True, "reader": False}  # user name -> may write
tokens: Dict[str, str] = {}  # token -> user name
widgets: Dict[int, dict] = {1: {"id": 1, "name": "sprocket", "price": 2.5, "description": None}}
orders: Dict[int, dict] = {1: {"id": 1, "widget_id": 1, "quantity": 2}}
next_id = {"widgets": 2, "orders": 2}

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="v1/token")


def current_user(token: str = Depends(oauth2_scheme)) -> str:
    user = tokens.get(token)
    if user is None:
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail="Could not validate credentials",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return user


def writer(user: str = Depends(current_user)) -> str:
    if not USERS[user]:
        raise HTTPException(status_code=status.HTTP_403_FORBIDDEN, detail="Not enough permissions")
    return user


app = FastAPI(title="Widgets shop")
router = APIRouter(prefix="/v1")


@router.post("/token", response_model=Token)
def login(form: OAuth2PasswordRequestForm = Depends()):
    if form.username not in USERS or not secrets.compare_digest(form.password, PASSWORD):
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail="Incorrect username or password",
            headers={"WWW-Authenticate": "Bearer"},
        )
    token = secrets.token_hex(16)
    tokens[token] = form.username
    return {"access_token": token, "token_type": "bearer"}


def found(table: Dict[int, dict], key: int, what: str) -> dict:
    if key not in table:
        raise HTTPException(status_code=404, detail=f"{what} not found")
    return table[key]


def create(table: str, values: dict) -> dict:
    key = next_id[table]
    next_id[table] += 1
    item = {"id": key, **values}
    (widgets if table == "widgets" else orders)[key] = item
    return item


@router.get("/widgets/", response_model=List[Widget])
def list_widgets(user: str = Depends(current_user)):
    return list(widgets.values())


@router.post("/widgets/", response_model=Widget, status_code=status.HTTP_201_CREATED)
def create_widget(widget: WidgetIn, user: str = Depends(writer)):
    return create("widgets", widget.dict())


@router.get("/widgets/{widget_id}", response_model=Widget)
def read_widget(widget_id: int, user: str = Depends(current_user)):
    return found(widgets, widget_id, "Widget")


@router.put("/widgets/{widget_id}", response_model=Widget)
def replace_widget(widget_id: int, widget: WidgetIn, user: str = Depends(writer)):
    found(widgets, widget_id, "Widget").update(widget.dict())
    return widgets[widget_id]


@router.patch("/widgets/{widget_id}", response_model=Widget)
def update_widget(widget_id: int, widget: WidgetPatch, user: str = Depends(writer)):
    found(widgets, widget_id, "Widget").update(widget.dict(exclude_unset=True))
    return widgets[widget_id]


@router.delete("/widgets/{widget_id}")
def delete_widget(widget_id: int, user: str = Depends(writer)):
    found(widgets, widget_id, "Widget")
    del widgets[widget_id]
    return {"ok": True}


@router.get("/orders/", response_model=List[Order])
def list_orders(user: str = Depends(current_user)):
    return list(orders.values())


@router.post("/orders/", response_model=Order, status_code=status.HTTP_201_CREATED)
def create_order(order: OrderIn, user: str = Depends(writer)):
    found(widgets, order.widget_id, "Widget")
    return create("orders", order.dict())


@router.get("/orders/{order_id}", response_model=Order)
def read_order(order_id: int, user: str = Depends(current_user)):
    return found(orders, order_id, "Order")


@router.put("/orders/{order_id}", response_model=Order)
def replace_order(order_id: int, order: OrderIn, user: str = Depends(writer)):
    item = found(orders, order_id, "Order")
    found(widgets, order.widget_id, "Widget")
    item.update(order.dict())
    return item


@router.patch("/orders/{order_id}", response_model=Order)
def update_order(order_id: int, order: OrderPatch, user: str = Depends(writer)):
    item = found(orders, order_id, "Order")
    values = order.dict(exclude_unset=True)
    if "widget_id" in values:
        found(widgets, values["widget_id"], "Widget")
    item.update(values)
    return item


@router.delete("/orders/{order_id}")
def delete_order(order_id: int, user: str = Depends(writer)):
    found(orders, order_id, "Order")
    del orders[order_id]
    return {"ok": True}


app.include_router(router)
