package com.acme.shop.api;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.AcmeException;
import com.acme.platform.core.Outcome;
import com.acme.platform.paging.PageRequest;
import com.acme.platform.paging.PageSlice;
import com.acme.platform.tenant.TenantScope;
import com.acme.shop.billing.Invoice;
import com.acme.shop.billing.InvoiceService;
import com.acme.shop.customer.Customer;
import com.acme.shop.customer.CustomerId;
import com.acme.shop.customer.CustomerService;
import com.acme.shop.order.Order;
import com.acme.shop.order.OrderId;
import com.acme.shop.order.OrderLine;
import com.acme.shop.order.OrderService;
import com.acme.shop.order.PaymentMethod;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * HTTP-facing operations of the shop, one method per endpoint in {@code openapi.yaml}.
 * Every request carries the tenant in the {@code X-Acme-Tenant} header; the controller opens
 * the {@link TenantScope} and maps outcomes to {@link Response}s. No business logic here.
 */
public class ShopController {

    /** Transport-neutral response; the web adapter serialises {@code body} or {@code error} as JSON. */
    public record Response<T>(int status, T body, ErrorBody error) {
        static <T> Response<T> failure(AcmeError e) {
            return new Response<>(statusFor(e.code()), null,
                    new ErrorBody(e.code().wireCode(), e.message(), e.details()));
        }
    }

    public record ErrorBody(String code, String message, Map<String, String> details) {}

    public record LineRequest(String sku, int quantity, String unitPrice, String currency) {}

    public record PlaceOrderRequest(String customerId, List<LineRequest> lines) {}

    /** {@code method} is one of {@code card}, {@code bank-transfer}, {@code store-credit}. */
    public record SettleRequest(String method, String vaultToken, String last4, String iban) {}

    public record CustomerView(String id, String displayName, String email, String tier) {
        static CustomerView of(Customer c) {
            return new CustomerView(c.customerId().toString(), c.displayName(), c.email(), c.tier().name());
        }
    }

    public record OrderView(String id, String customerId, String status, String net, String invoiceNumber) {
        static OrderView of(Order o) {
            return new OrderView(o.orderId().toString(), o.customerId().toString(), o.status().name(),
                    o.netTotal().toString(), o.invoiceNumber().orElse(null));
        }
    }

    public record InvoiceView(String number, String orderId, String status, String gross, String dueDate) {
        static InvoiceView of(Invoice i) {
            return new InvoiceView(i.number(), i.orderId().toString(), i.status().name(),
                    i.gross().toString(), i.dueDate().toString());
        }
    }

    private final CustomerService customers;
    private final OrderService orders;
    private final InvoiceService invoices;

    public ShopController(CustomerService customers, OrderService orders, InvoiceService invoices) {
        this.customers = customers;
        this.orders = orders;
        this.invoices = invoices;
    }

    /** {@code POST /v1/customers} */
    public Response<CustomerView> registerCustomer(String tenant, String displayName, String email, String tier) {
        Customer.Tier parsed = tier == null ? Customer.Tier.STANDARD : Customer.Tier.valueOf(tier.toUpperCase(Locale.ROOT));
        return handle(tenant, 201, () -> customers.register(displayName, email, parsed, "EUR"), CustomerView::of);
    }

    /** {@code POST /v1/orders} */
    public Response<OrderView> placeOrder(String tenant, PlaceOrderRequest request) {
        return handle(tenant, 201, () -> orders.placeOrder(CustomerId.parse(request.customerId()),
                request.lines().stream()
                        .map(l -> OrderLine.of(l.sku(), l.quantity(), l.unitPrice(), l.currency()))
                        .toList()), OrderView::of);
    }

    /** {@code GET /v1/orders?page=&size=} */
    public Response<PageSlice<OrderService.Summary>> listOrders(String tenant, Integer page, Integer size) {
        PageRequest request = PageRequest.of(page == null ? 0 : page, size == null ? PageRequest.DEFAULT_PAGE_SIZE : size);
        return handle(tenant, 200, () -> Outcome.ok(orders.listOrders(request)), Function.identity());
    }

    /** {@code GET /v1/orders/{orderId}} */
    public Response<OrderView> getOrder(String tenant, String orderId) {
        return handle(tenant, 200, () -> orders.findOrder(OrderId.parse(orderId)), OrderView::of);
    }

    /** {@code POST /v1/orders/{orderId}/cancel} */
    public Response<OrderView> cancelOrder(String tenant, String orderId, String reason) {
        return handle(tenant, 200, () -> orders.cancelOrder(OrderId.parse(orderId), reason), OrderView::of);
    }

    /** {@code POST /v1/orders/{orderId}/settle} */
    public Response<InvoiceView> settleOrder(String tenant, String orderId, SettleRequest request) {
        return handle(tenant, 200, () -> {
            OrderId id = OrderId.parse(orderId);
            return orders.findOrder(id)
                    .flatMap(order -> orders.settleOrder(id, toPaymentMethod(request, order.customerId())));
        }, InvoiceView::of);
    }

    /** {@code GET /v1/invoices/{invoiceNumber}} */
    public Response<InvoiceView> getInvoice(String tenant, String invoiceNumber) {
        return handle(tenant, 200, () -> invoices.findByNumber(invoiceNumber), InvoiceView::of);
    }

    private <T, V> Response<V> handle(String tenant, int successStatus,
                                      Supplier<Outcome<T>> action, Function<? super T, ? extends V> view) {
        try (TenantScope.Handle scope = TenantScope.enter(tenant)) {
            Outcome<V> outcome = Outcome.attemptFlat(action).map(view);
            return outcome.isOk()
                    ? new Response<>(successStatus, outcome.orElseThrow(), null)
                    : Response.failure(outcome.error());
        } catch (AcmeException e) {
            return Response.failure(e.error());
        }
    }

    static int statusFor(AcmeError.Code code) {
        return switch (code) {
            case VALIDATION_FAILED, TENANT_MISSING -> 400;
            case PAYMENT_DECLINED -> 402;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case UPSTREAM_UNAVAILABLE, RETRY_BUDGET_EXHAUSTED -> 503;
            case INTERNAL -> 500;
        };
    }

    private static PaymentMethod toPaymentMethod(SettleRequest request, CustomerId orderingCustomer) {
        String method = request.method() == null ? "" : request.method();
        return switch (method) {
            case "card" -> new PaymentMethod.Card(request.vaultToken(), request.last4());
            case "bank-transfer" -> new PaymentMethod.BankTransfer(request.iban());
            case "store-credit" -> new PaymentMethod.StoreCredit(orderingCustomer);
            default -> throw new AcmeException(AcmeError.validation("method", "unknown payment method " + method));
        };
    }
}
