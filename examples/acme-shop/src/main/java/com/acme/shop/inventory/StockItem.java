package com.acme.shop.inventory;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;
import com.acme.platform.persistence.Entity;

import java.util.ArrayList;
import java.util.List;

/** On-hand quantity of one SKU in the tenant's warehouse, with outstanding reservations. */
public class StockItem extends Entity {

    private static final int DEFAULT_REORDER_POINT = 10;

    private final Sku sku;
    private final int reorderPoint;
    private int onHand;
    private final List<Reservation> reservations = new ArrayList<>();

    public StockItem(long id, Sku sku, int onHand) {
        this(id, sku, onHand, DEFAULT_REORDER_POINT);
    }

    public StockItem(long id, Sku sku, int onHand, int reorderPoint) {
        super(id);
        this.sku = Guard.requireNonNull(sku, "sku");
        this.onHand = (int) Guard.requireNonNegative(onHand, "onHand");
        this.reorderPoint = (int) Guard.requireNonNegative(reorderPoint, "reorderPoint");
    }

    public Sku sku() {
        return sku;
    }

    public int onHand() {
        return onHand;
    }

    public int reserved() {
        return reservations.stream().mapToInt(Reservation::quantity).sum();
    }

    public int available() {
        return onHand - reserved();
    }

    public boolean belowReorderPoint() {
        return available() < reorderPoint;
    }

    public boolean hasReservation(String reference) {
        return reservations.stream().anyMatch(r -> r.reference().equals(reference));
    }

    /** Holds {@code quantity} units for {@code reference} (an order id); fails with CONFLICT if not available. */
    public Reservation reserve(String reference, int quantity) {
        Guard.requirePositive(quantity, "quantity");
        Guard.requireThat(quantity <= available(), AcmeError.Code.CONFLICT,
                "insufficient stock for " + sku + ": requested " + quantity + ", available " + available());
        Reservation reservation = new Reservation(reference, quantity);
        reservations.add(reservation);
        return reservation;
    }

    /** Drops the reservation without shipping. Returns false if there was none. */
    public boolean release(String reference) {
        return reservations.removeIf(r -> r.reference().equals(reference));
    }

    /** Turns the reservation into a shipment: on-hand decreases by the reserved quantity. */
    public void commit(String reference) {
        Reservation reservation = reservations.stream()
                .filter(r -> r.reference().equals(reference))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no reservation " + reference + " on " + sku));
        reservations.remove(reservation);
        onHand -= reservation.quantity();
    }

    public void restock(int quantity) {
        onHand += Guard.requirePositive(quantity, "quantity");
    }

    @Override
    public String naturalKey() {
        return sku.code();
    }

    /** A hold on stock for one order. Inner class: it belongs to, and reads, its stock item. */
    public final class Reservation {
        private final String reference;
        private final int quantity;

        private Reservation(String reference, int quantity) {
            this.reference = reference;
            this.quantity = quantity;
        }

        public String reference() {
            return reference;
        }

        public int quantity() {
            return quantity;
        }

        public Sku sku() {
            return StockItem.this.sku;
        }
    }
}
