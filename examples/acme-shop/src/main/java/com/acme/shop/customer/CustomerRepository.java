package com.acme.shop.customer;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.persistence.InMemoryRepository;

import java.util.Locale;
import java.util.Optional;

public interface CustomerRepository {

    Optional<Customer> findById(CustomerId id);

    Optional<Customer> findByEmail(String email);

    Customer save(Customer customer);

    default Outcome<Customer> require(CustomerId id) {
        return findById(id)
                .map(Outcome::ok)
                .orElseGet(() -> Outcome.fail(AcmeError.notFound("Customer", id)));
    }

    default boolean emailTaken(String email) {
        return findByEmail(email).isPresent();
    }

    final class InMemory extends InMemoryRepository<Customer> implements CustomerRepository {

        public InMemory() {
            super("Customer");
        }

        @Override
        public Optional<Customer> findById(CustomerId id) {
            return findById(id.value());
        }

        @Override
        public Optional<Customer> findByEmail(String email) {
            String normalized = email.strip().toLowerCase(Locale.ROOT);
            return findWhere(c -> c.email().equals(normalized)).stream().findFirst();
        }
    }
}
