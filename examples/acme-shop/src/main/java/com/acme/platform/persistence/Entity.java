package com.acme.platform.persistence;

import com.acme.platform.tenant.TenantScope;

/**
 * Base class of every persisted Acme aggregate: a Snowflake id, the owning tenant and an
 * optimistic-locking version maintained by the repository.
 */
public abstract class Entity {

    private final long id;
    private final String tenantId;
    private long version;

    protected Entity(long id, String tenantId) {
        this.id = id;
        this.tenantId = tenantId;
    }

    /** Creates an entity owned by the tenant of the current {@link TenantScope}. */
    protected Entity(long id) {
        this(id, TenantScope.current());
    }

    public final long id() {
        return id;
    }

    public final String tenantId() {
        return tenantId;
    }

    public long version() {
        return version;
    }

    /** Business key used in logs and uniqueness checks, e.g. an email or invoice number. */
    public abstract String naturalKey();

    final void bumpVersion() {
        version++;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((Entity) o).id == id;
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(id);
    }
}
