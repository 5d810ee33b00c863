package com.acme.platform.persistence;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.paging.PageRequest;
import com.acme.platform.paging.PageSlice;
import com.acme.platform.tenant.TenantScope;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Tenant-partitioned in-memory store used by tests, demos and the {@code local} profile.
 * Every method works on the partition of {@link TenantScope#current()}; entities of other
 * tenants are invisible.
 *
 * <p>Domain repositories extend this class and implement their own interface on top, e.g.
 * {@code class InMemory extends InMemoryRepository<Order> implements OrderRepository}.
 *
 * @param <T> entity type
 */
public class InMemoryRepository<T extends Entity> {

    private final Map<String, Map<Long, T>> byTenant = new ConcurrentHashMap<>();
    private final String entityName;

    public InMemoryRepository(String entityName) {
        this.entityName = entityName;
    }

    /** Stores the entity and bumps its version. Saving another tenant's entity is rejected as not found. */
    public T save(T entity) {
        TenantScope.requireOwnedByCurrent(entity.tenantId(), entityName, entity.id());
        entity.bumpVersion();
        partition().put(entity.id(), entity);
        return entity;
    }

    public Optional<T> findById(long id) {
        return Optional.ofNullable(partition().get(id));
    }

    public Outcome<T> getById(long id) {
        return findById(id)
                .map(Outcome::ok)
                .orElseGet(() -> Outcome.fail(AcmeError.notFound(entityName, id)));
    }

    public List<T> findWhere(Predicate<? super T> filter) {
        return partition().values().stream()
                .filter(filter)
                .sorted(Comparator.comparingLong(Entity::id))
                .toList();
    }

    public PageSlice<T> findPage(PageRequest request) {
        return findPage(request, Comparator.comparingLong(Entity::id));
    }

    public PageSlice<T> findPage(PageRequest request, Comparator<? super T> order) {
        List<T> sorted = partition().values().stream().sorted(order).toList();
        return PageSlice.of(sorted, request);
    }

    private Map<Long, T> partition() {
        return byTenant.computeIfAbsent(TenantScope.current(), tenant -> new ConcurrentHashMap<>());
    }
}
