package com.acme.platform.events;

import java.time.Instant;

/**
 * Something that happened to an aggregate. Events are immutable (use records), carry the
 * tenant explicitly (handlers may run outside the publisher's {@code TenantScope}) and are
 * named in the past tense.
 */
public interface DomainEvent {

    String tenantId();

    /** Id of the aggregate the event belongs to, in its display form (e.g. {@code O-123}). */
    String aggregateId();

    Instant occurredAt();

    /** Routing name, {@code acme.<SimpleClassName>} unless overridden. */
    default String eventType() {
        return "acme." + getClass().getSimpleName();
    }
}
