package com.acme.shop.billing;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.paging.PageRequest;
import com.acme.platform.paging.PageSlice;
import com.acme.platform.persistence.InMemoryRepository;
import com.acme.shop.order.OrderId;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

public interface InvoiceRepository {

    Optional<Invoice> findByNumber(String number);

    /** The non-voided invoice of an order, if any. */
    Optional<Invoice> findActiveByOrder(OrderId orderId);

    /** Invoices with {@code from <= issuedAt < to}, ordered by issue time, one page at a time. */
    PageSlice<Invoice> findIssuedBetween(Instant from, Instant to, PageRequest page);

    Invoice save(Invoice invoice);

    default Outcome<Invoice> requireNumber(String number) {
        return findByNumber(number)
                .map(Outcome::ok)
                .orElseGet(() -> Outcome.fail(AcmeError.notFound("Invoice", number)));
    }

    final class InMemory extends InMemoryRepository<Invoice> implements InvoiceRepository {

        public InMemory() {
            super("Invoice");
        }

        @Override
        public Optional<Invoice> findByNumber(String number) {
            return findWhere(i -> i.number().equals(number)).stream().findFirst();
        }

        @Override
        public Optional<Invoice> findActiveByOrder(OrderId orderId) {
            return findWhere(i -> i.orderId().equals(orderId) && i.status() != Invoice.Status.VOIDED)
                    .stream().findFirst();
        }

        @Override
        public PageSlice<Invoice> findIssuedBetween(Instant from, Instant to, PageRequest page) {
            List<Invoice> matching = findWhere(i -> !i.issuedAt().isBefore(from) && i.issuedAt().isBefore(to))
                    .stream()
                    .sorted(Comparator.comparing(Invoice::issuedAt))
                    .toList();
            return PageSlice.of(matching, page);
        }
    }
}
