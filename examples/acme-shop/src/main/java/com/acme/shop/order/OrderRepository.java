package com.acme.shop.order;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.paging.PageRequest;
import com.acme.platform.paging.PageSlice;
import com.acme.platform.persistence.InMemoryRepository;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

public interface OrderRepository {

    Optional<Order> findById(OrderId id);

    List<Order> findByStatus(OrderStatus status);

    /** Newest first. */
    PageSlice<Order> findRecent(PageRequest request);

    Order save(Order order);

    default Outcome<Order> require(OrderId id) {
        return findById(id)
                .map(Outcome::ok)
                .orElseGet(() -> Outcome.fail(AcmeError.notFound("Order", id)));
    }

    final class InMemory extends InMemoryRepository<Order> implements OrderRepository {

        public InMemory() {
            super("Order");
        }

        @Override
        public Optional<Order> findById(OrderId id) {
            return findById(id.value());
        }

        @Override
        public List<Order> findByStatus(OrderStatus status) {
            return findWhere(o -> o.status() == status);
        }

        @Override
        public PageSlice<Order> findRecent(PageRequest request) {
            return findPage(request, Comparator.comparing(Order::createdAt).reversed());
        }
    }
}
