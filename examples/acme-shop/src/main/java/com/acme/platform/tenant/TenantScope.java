package com.acme.platform.tenant;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.AcmeException;
import com.acme.platform.core.Guard;

import java.util.function.Supplier;

/**
 * Thread-bound tenant context. Every repository and ledger call in Acme is tenant
 * partitioned and reads the tenant from here, never from a method parameter.
 *
 * <pre>{@code
 * try (TenantScope.Handle ignored = TenantScope.enter("emea-retail")) {
 *     orderService.placeOrder(...);
 * }
 * }</pre>
 *
 * Scopes nest: closing a handle restores the previously active tenant.
 */
public final class TenantScope {

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private TenantScope() {}

    /** Activates {@code tenantId} on the current thread until the returned handle is closed. */
    public static Handle enter(String tenantId) {
        String id = Guard.requireText(tenantId, "tenantId", 64);
        Handle handle = new Handle(CURRENT.get());
        CURRENT.set(id);
        return handle;
    }

    /**
     * The active tenant.
     *
     * @throws AcmeException with {@link AcmeError.Code#TENANT_MISSING} when no scope is active
     */
    public static String current() {
        String id = CURRENT.get();
        if (id == null) {
            throw new AcmeException(AcmeError.of(AcmeError.Code.TENANT_MISSING, "no tenant scope is active"));
        }
        return id;
    }

    /** Runs {@code action} with {@code tenantId} active and restores the previous scope afterwards. */
    public static <T> T callAs(String tenantId, Supplier<T> action) {
        try (Handle ignored = enter(tenantId)) {
            return action.get();
        }
    }

    /**
     * Fails with {@code NOT_FOUND} semantics when {@code ownerTenantId} is not the active
     * tenant. Cross-tenant access is reported as "not found" so ids of other tenants do not leak.
     */
    public static void requireOwnedByCurrent(String ownerTenantId, String entity, Object id) {
        if (!current().equals(ownerTenantId)) {
            throw new AcmeException(AcmeError.notFound(entity, id));
        }
    }

    /** Closes a tenant scope. Not thread-safe: close on the thread that opened it. */
    public static final class Handle implements AutoCloseable {
        private final String previous;
        private boolean closed;

        private Handle(String previous) {
            this.previous = previous;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }
}
