package com.acme.shop.inventory;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.persistence.InMemoryRepository;

import java.util.List;
import java.util.Optional;

public interface StockRepository {

    Optional<StockItem> findBySku(Sku sku);

    List<StockItem> findWithReservation(String reference);

    StockItem save(StockItem item);

    default Outcome<StockItem> requireSku(Sku sku) {
        return findBySku(sku)
                .map(Outcome::ok)
                .orElseGet(() -> Outcome.fail(AcmeError.notFound("StockItem", sku)));
    }

    final class InMemory extends InMemoryRepository<StockItem> implements StockRepository {

        public InMemory() {
            super("StockItem");
        }

        @Override
        public Optional<StockItem> findBySku(Sku sku) {
            return findWhere(item -> item.sku().equals(sku)).stream().findFirst();
        }

        @Override
        public List<StockItem> findWithReservation(String reference) {
            return findWhere(item -> item.hasReservation(reference));
        }
    }
}
