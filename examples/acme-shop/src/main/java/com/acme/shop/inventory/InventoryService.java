package com.acme.shop.inventory;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.events.DomainEvent;
import com.acme.platform.events.DomainEventBus;
import com.acme.platform.ids.SnowflakeIds;
import com.acme.platform.tenant.TenantScope;
import com.acme.platform.time.TimeSource;
import com.acme.shop.order.OrderId;
import com.acme.shop.order.OrderLine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.acme.platform.core.Guard.requireNonNull;
import static com.acme.platform.core.Guard.requirePositive;

/** Reservations and stock movements. Reservations are keyed by the order id's display form. */
public class InventoryService {

    /** Published when a reservation or commit pushes an item below its reorder point. */
    public record StockRunningLow(String tenantId, Sku sku, int available, Instant occurredAt) implements DomainEvent {
        @Override
        public String aggregateId() {
            return sku.code();
        }
    }

    private final StockRepository stock;
    private final DomainEventBus events;
    private final SnowflakeIds ids;
    private final TimeSource time;

    public InventoryService(StockRepository stock, DomainEventBus events, SnowflakeIds ids, TimeSource time) {
        this.stock = stock;
        this.events = events;
        this.ids = ids;
        this.time = time;
    }

    /**
     * Reserves every line of an order, all or nothing. Quantities of lines with the same SKU
     * are added up before checking availability.
     *
     * @return the reservations, or {@code NOT_FOUND}/{@code CONFLICT} naming the first SKU that failed
     */
    public Outcome<List<StockItem.Reservation>> reserveFor(OrderId orderId, List<OrderLine> lines) {
        requireNonNull(orderId, "orderId");
        Map<Sku, Integer> wanted = new LinkedHashMap<>();
        lines.forEach(line -> wanted.merge(line.sku(), line.quantity(), Integer::sum));

        for (Map.Entry<Sku, Integer> entry : wanted.entrySet()) {
            Outcome<StockItem> item = stock.requireSku(entry.getKey());
            if (item.isFail()) {
                return Outcome.fail(item.error());
            }
            if (item.orElseThrow().available() < entry.getValue()) {
                return Outcome.fail(AcmeError.conflict("insufficient stock")
                        .with("sku", entry.getKey())
                        .with("requested", entry.getValue()));
            }
        }

        List<StockItem.Reservation> reservations = new ArrayList<>();
        wanted.forEach((sku, quantity) -> {
            StockItem item = stock.findBySku(sku).orElseThrow();
            reservations.add(item.reserve(orderId.toString(), quantity));
            stock.save(item);
            warnIfLow(item);
        });
        return Outcome.ok(reservations);
    }

    /** Releases all reservations of an order (cancellation). Idempotent. */
    public int releaseFor(OrderId orderId) {
        int released = 0;
        for (StockItem item : stock.findWithReservation(orderId.toString())) {
            if (item.release(orderId.toString())) {
                stock.save(item);
                released++;
            }
        }
        return released;
    }

    /** Converts an order's reservations into shipments (after successful settlement). */
    public Outcome<Integer> commitFor(OrderId orderId) {
        List<StockItem> items = stock.findWithReservation(orderId.toString());
        if (items.isEmpty()) {
            return Outcome.fail(AcmeError.notFound("Reservation", orderId));
        }
        items.forEach(item -> {
            item.commit(orderId.toString());
            stock.save(item);
            warnIfLow(item);
        });
        return Outcome.ok(items.size());
    }

    public Outcome<StockItem> restock(Sku sku, int quantity) {
        requirePositive(quantity, "quantity");
        return stock.requireSku(sku)
                .recover(err -> err.code() == AcmeError.Code.NOT_FOUND
                        ? Outcome.ok(new StockItem(ids.nextId(), sku, 0))
                        : Outcome.fail(err))
                .peek(item -> item.restock(quantity))
                .map(stock::save);
    }

    private void warnIfLow(StockItem item) {
        if (item.belowReorderPoint()) {
            events.publish(new StockRunningLow(TenantScope.current(), item.sku(), item.available(), time.now()));
        }
    }
}
