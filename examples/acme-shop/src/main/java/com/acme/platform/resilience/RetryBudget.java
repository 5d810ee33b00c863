package com.acme.platform.resilience;

import com.acme.platform.config.AcmeSettings;
import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;
import com.acme.platform.core.Outcome;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Bounded retries with exponential back-off for calls to upstream systems.
 *
 * <p>Only failures whose code is {@linkplain AcmeError.Code#retryable() retryable} are
 * retried. When the budget is used up the result is {@code RETRY_BUDGET_EXHAUSTED} with the
 * last error's wire code in the details, so callers can distinguish "upstream down" from
 * "upstream said no".
 */
public final class RetryBudget {

    private final int maxAttempts;
    private final Duration initialBackoff;
    private final double multiplier;

    public RetryBudget(int maxAttempts, Duration initialBackoff) {
        this(maxAttempts, initialBackoff, 2.0);
    }

    public RetryBudget(int maxAttempts, Duration initialBackoff, double multiplier) {
        this.maxAttempts = Guard.requirePositive(maxAttempts, "maxAttempts");
        this.initialBackoff = Guard.requireNonNull(initialBackoff, "initialBackoff");
        this.multiplier = multiplier;
    }

    /**
     * Reads {@code acme.retry.<name>.max-attempts} and {@code acme.retry.<name>.initial-backoff-ms}
     * (defaults: 3 attempts, 200ms).
     */
    public static RetryBudget fromSettings(AcmeSettings settings, String name) {
        String prefix = "acme.retry." + name + ".";
        return new RetryBudget(
                settings.integer(prefix + "max-attempts", 3),
                Duration.ofMillis(settings.integer(prefix + "initial-backoff-ms", 200)));
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public <T> Outcome<T> run(String operation, Supplier<Outcome<T>> action) {
        Duration backoff = initialBackoff;
        Outcome<T> last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            last = action.get();
            if (last.isOk() || !last.error().isRetryable()) {
                return last;
            }
            if (attempt < maxAttempts) {
                pause(backoff);
                backoff = Duration.ofMillis((long) (backoff.toMillis() * multiplier));
            }
        }
        if (maxAttempts == 1) {
            return last;
        }
        return Outcome.fail(AcmeError.of(AcmeError.Code.RETRY_BUDGET_EXHAUSTED,
                        operation + " failed after " + maxAttempts + " attempts")
                .with("operation", operation)
                .with("lastError", last.error().code().wireCode()));
    }

    private void pause(Duration duration) {
        if (duration.isZero()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
