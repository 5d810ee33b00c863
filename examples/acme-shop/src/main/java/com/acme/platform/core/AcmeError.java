package com.acme.platform.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An expected, business-level failure. Carried by {@link Outcome.Fail} and, for
 * precondition violations, by {@link AcmeException}.
 *
 * <p>Every error has a {@link Code} whose {@linkplain Code#wireCode() wire code}
 * ({@code ACME-4xx}/{@code ACME-5xx}) is what clients see in API responses, a
 * human-readable message, and optional string details. Errors are immutable;
 * {@link #with(String, Object)} returns a copy.
 */
public final class AcmeError {

    /** Stable error codes. Never renumber a wire code: partner integrations match on it. */
    public enum Code {
        VALIDATION_FAILED("ACME-400", false),
        PAYMENT_DECLINED("ACME-402", false),
        NOT_FOUND("ACME-404", false),
        CONFLICT("ACME-409", false),
        TENANT_MISSING("ACME-412", false),
        INTERNAL("ACME-500", false),
        UPSTREAM_UNAVAILABLE("ACME-503", true),
        RETRY_BUDGET_EXHAUSTED("ACME-529", false);

        private final String wireCode;
        private final boolean retryable;

        Code(String wireCode, boolean retryable) {
            this.wireCode = wireCode;
            this.retryable = retryable;
        }

        public String wireCode() {
            return wireCode;
        }

        /** Whether a {@code RetryBudget} may retry an operation that failed with this code. */
        public boolean retryable() {
            return retryable;
        }
    }

    private final Code code;
    private final String message;
    private final Map<String, String> details;

    private AcmeError(Code code, String message, Map<String, String> details) {
        this.code = Objects.requireNonNull(code, "code");
        this.message = Objects.requireNonNull(message, "message");
        this.details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public static AcmeError of(Code code, String message) {
        return new AcmeError(code, message, Map.of());
    }

    /** A {@link Code#NOT_FOUND} error naming the entity type and id, e.g. {@code notFound("Order", id)}. */
    public static AcmeError notFound(String entity, Object id) {
        return of(Code.NOT_FOUND, entity + " " + id + " not found")
                .with("entity", entity)
                .with("id", id);
    }

    /** A {@link Code#VALIDATION_FAILED} error for one input field. */
    public static AcmeError validation(String field, String reason) {
        return of(Code.VALIDATION_FAILED, field + ": " + reason).with("field", field);
    }

    public static AcmeError conflict(String message) {
        return of(Code.CONFLICT, message);
    }

    /** Returns a copy of this error with one more detail entry; {@code null} values are stored as "null". */
    public AcmeError with(String key, Object value) {
        Map<String, String> copy = new LinkedHashMap<>(details);
        copy.put(key, String.valueOf(value));
        return new AcmeError(code, message, copy);
    }

    public Code code() {
        return code;
    }

    public String message() {
        return message;
    }

    public Map<String, String> details() {
        return details;
    }

    public boolean isRetryable() {
        return code.retryable();
    }

    @Override
    public String toString() {
        String base = "[" + code.wireCode() + "] " + message;
        return details.isEmpty() ? base : base + " " + details;
    }
}
