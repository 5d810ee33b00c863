package com.acme.shop.order;

import com.acme.platform.audit.AuditLedger;
import com.acme.platform.config.AcmeSettings;
import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.events.DomainEventBus;
import com.acme.platform.ids.SnowflakeIds;
import com.acme.platform.money.Money;
import com.acme.platform.tenant.TenantScope;
import com.acme.platform.time.TimeSource;
import com.acme.shop.billing.InvoiceRepository;
import com.acme.shop.billing.InvoiceService;
import com.acme.shop.billing.PaymentGateway;
import com.acme.shop.billing.TaxPolicy;
import com.acme.shop.customer.Customer;
import com.acme.shop.customer.CustomerRepository;
import com.acme.shop.customer.CustomerService;
import com.acme.shop.inventory.InventoryService;
import com.acme.shop.inventory.Sku;
import com.acme.shop.inventory.StockRepository;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Plain tests (no JUnit) of order placement and cancellation with in-memory repositories. */
public class OrderServiceTest {

    private static final String TENANT = "emea-retail";

    /** The PSP is not involved in placing or cancelling orders. */
    private static final PaymentGateway NO_PSP = new PaymentGateway() {
        @Override
        public Outcome<Capture> charge(OrderId orderId, Money amount, PaymentMethod method, String key) {
            return Outcome.fail(AcmeError.Code.UPSTREAM_UNAVAILABLE, "no PSP in this test");
        }

        @Override
        public List<Capture> capturesBetween(Instant from, Instant to) {
            return List.of();
        }
    };

    private final TimeSource time = new TimeSource.Manual(Instant.parse("2024-03-11T09:30:00Z"));
    private final SnowflakeIds ids = new SnowflakeIds(3, time);
    private final AuditLedger audit = new AuditLedger(time);
    private OrderService orders;
    private Customer gold;

    private void setUp() {
        DomainEventBus events = new DomainEventBus();
        CustomerService customers = new CustomerService(new CustomerRepository.InMemory(), ids, audit);
        InventoryService inventory = new InventoryService(new StockRepository.InMemory(), events, ids, time);
        InvoiceService invoices = new InvoiceService(new InvoiceRepository.InMemory(), NO_PSP,
                TaxPolicy.forCountry("DE"), ids, time, audit, AcmeSettings.of(Map.of()));
        orders = new OrderService(new OrderRepository.InMemory(), customers, inventory, invoices, events, audit, ids, time);
        gold = customers.register("Hartmann GmbH", "einkauf@hartmann.example", Customer.Tier.GOLD, "EUR").orElseThrow();
        inventory.restock(new Sku("FOD-10023"), 40).orElseThrow();
        inventory.restock(new Sku("HOM-2001"), 5).orElseThrow();
    }

    public void testPlaceOrderAppliesTierDiscountAndIsAudited() {
        TenantScope.callAs(TENANT, () -> {
            setUp();
            Order order = orders.placeOrder(gold.customerId(),
                    OrderLine.of("FOD-10023", 4, "2.50", "EUR"),
                    OrderLine.of("HOM-2001", 1, "30.00", "EUR")).orElseThrow();
            check(order.status() == OrderStatus.PLACED, "placed");
            check(order.discount().toString().equals("EUR 2.00"), "5% of 40.00 but was " + order.discount());
            check(audit.entriesFor(TENANT, "order.place").size() == 1, "audited");
            return null;
        });
    }

    public void testInsufficientStockIsAConflictAndCancelReleasesStock() {
        TenantScope.callAs(TENANT, () -> {
            setUp();
            Outcome<Order> tooMany = orders.placeOrder(gold.customerId(), OrderLine.of("HOM-2001", 6, "30.00", "EUR"));
            check(tooMany.isFail() && tooMany.error().code() == AcmeError.Code.CONFLICT, "conflict: " + tooMany);
            Order all = orders.placeOrder(gold.customerId(), OrderLine.of("HOM-2001", 5, "30.00", "EUR")).orElseThrow();
            orders.cancelOrder(all.orderId(), "customer changed mind").orElseThrow();
            check(orders.placeOrder(gold.customerId(), OrderLine.of("HOM-2001", 5, "30.00", "EUR")).isOk(), "released");
            return null;
        });
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    public static void main(String[] args) {
        new OrderServiceTest().testPlaceOrderAppliesTierDiscountAndIsAudited();
        new OrderServiceTest().testInsufficientStockIsAConflictAndCancelReleasesStock();
        System.out.println("OrderServiceTest: all passed");
    }
}
