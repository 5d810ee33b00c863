package com.acme.platform.audit;

import com.acme.platform.tenant.TenantScope;
import com.acme.platform.time.TimeSource;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Append-only record of audited operations, partitioned by tenant.
 *
 * <p>Entries are written by the service itself after the operation succeeded (there is
 * no interceptor). Attribute values of {@link AuditedOperation.Sensitivity#PERSONAL_DATA}
 * operations are masked before they are stored.
 */
public class AuditLedger {

    /** One ledger line. {@code sequence} is strictly increasing per ledger instance. */
    public record Entry(long sequence,
                        Instant at,
                        String tenantId,
                        String operation,
                        AuditedOperation.Sensitivity sensitivity,
                        String subject,
                        Map<String, String> attributes) {
    }

    private final TimeSource time;
    private final List<Entry> entries = new CopyOnWriteArrayList<>();
    private final AtomicLong sequence = new AtomicLong();

    public AuditLedger(TimeSource time) {
        this.time = time;
    }

    /**
     * Records an operation by looking up the {@link AuditedOperation} on
     * {@code owner.methodName}. Requires an active {@link TenantScope}.
     *
     * @throws IllegalArgumentException if no method of that name carries the annotation
     */
    public Entry record(Class<?> owner, String methodName, String subject, Map<String, String> attributes) {
        AuditedOperation op = Arrays.stream(owner.getDeclaredMethods())
                .filter(m -> m.getName().equals(methodName))
                .map(m -> m.getAnnotation(AuditedOperation.class))
                .filter(a -> a != null)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        owner.getSimpleName() + "#" + methodName + " is not annotated with @AuditedOperation"));
        return append(op.value(), op.sensitivity(), subject, attributes);
    }

    /** Records an ad-hoc operation with {@link AuditedOperation.Sensitivity#INTERNAL}. */
    public Entry record(String operation, String subject, Map<String, String> attributes) {
        return append(operation, AuditedOperation.Sensitivity.INTERNAL, subject, attributes);
    }

    public List<Entry> entriesFor(String tenantId, String operation) {
        return entries.stream()
                .filter(e -> e.tenantId().equals(tenantId) && e.operation().equals(operation))
                .toList();
    }

    private Entry append(String operation, AuditedOperation.Sensitivity sensitivity,
                         String subject, Map<String, String> attributes) {
        Map<String, String> stored = new LinkedHashMap<>();
        attributes.forEach((k, v) -> stored.put(k,
                sensitivity == AuditedOperation.Sensitivity.PERSONAL_DATA ? mask(v) : v));
        Entry entry = new Entry(sequence.incrementAndGet(), time.now(), TenantScope.current(),
                operation, sensitivity, subject, Map.copyOf(stored));
        entries.add(entry);
        return entry;
    }

    private static String mask(String value) {
        if (value == null || value.length() <= 2) {
            return "**";
        }
        return value.charAt(0) + "*".repeat(value.length() - 2) + value.charAt(value.length() - 1);
    }
}
