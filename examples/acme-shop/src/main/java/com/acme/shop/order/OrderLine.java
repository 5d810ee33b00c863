package com.acme.shop.order;

import com.acme.platform.core.Guard;
import com.acme.platform.money.Money;
import com.acme.shop.inventory.Sku;

/** One position of an order. The unit price is the catalogue price at the time of ordering. */
public record OrderLine(Sku sku, int quantity, Money unitPrice) {

    public OrderLine {
        Guard.requireNonNull(sku, "sku");
        Guard.requirePositive(quantity, "quantity");
        Guard.requirePositive(unitPrice, "unitPrice");
    }

    public static OrderLine of(String sku, int quantity, String unitPrice, String currency) {
        return new OrderLine(new Sku(sku), quantity, Money.of(unitPrice, currency));
    }

    public Money lineTotal() {
        return unitPrice.times(quantity);
    }
}
