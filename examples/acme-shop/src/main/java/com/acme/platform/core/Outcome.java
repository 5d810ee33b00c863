package com.acme.platform.core;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The result of an Acme operation: either {@link Ok} with a value or {@link Fail} with an
 * {@link AcmeError}.
 *
 * <p>Convention: services never throw for expected business failures (unknown id,
 * declined payment, insufficient stock). They return {@code Outcome.fail(...)} and chain
 * steps with {@link #flatMap(Function)}. Exceptions are reserved for programming errors
 * and {@link Guard} violations; {@link #attempt(Supplier)} converts the latter back into
 * an outcome at service boundaries.
 *
 * @param <T> type of the success value
 */
public sealed interface Outcome<T> permits Outcome.Ok, Outcome.Fail {

    /** Successful outcome. */
    record Ok<T>(T value) implements Outcome<T> {}

    /** Failed outcome. */
    record Fail<T>(AcmeError error) implements Outcome<T> {
        public Fail {
            Objects.requireNonNull(error, "error");
        }
    }

    static <T> Outcome<T> ok(T value) {
        return new Ok<>(value);
    }

    static <T> Outcome<T> fail(AcmeError error) {
        return new Fail<>(error);
    }

    static <T> Outcome<T> fail(AcmeError.Code code, String message) {
        return new Fail<>(AcmeError.of(code, message));
    }

    /**
     * Runs {@code action}, turning an {@link AcmeException} (typically from {@link Guard})
     * into a failed outcome. Other exceptions propagate.
     */
    static <T> Outcome<T> attempt(Supplier<? extends T> action) {
        try {
            return ok(action.get());
        } catch (AcmeException e) {
            return fail(e.error());
        }
    }

    /** Like {@link #attempt(Supplier)} for actions that already return an outcome. */
    static <T> Outcome<T> attemptFlat(Supplier<Outcome<T>> action) {
        try {
            return action.get();
        } catch (AcmeException e) {
            return fail(e.error());
        }
    }

    default boolean isOk() {
        return this instanceof Ok;
    }

    default boolean isFail() {
        return this instanceof Fail;
    }

    /** The error of a failed outcome; throws {@link IllegalStateException} on success. */
    default AcmeError error() {
        throw new IllegalStateException("Outcome is ok, it has no error");
    }

    default <R> Outcome<R> map(Function<? super T, ? extends R> fn) {
        if (this instanceof Ok<T> o) {
            return ok(fn.apply(o.value()));
        }
        return fail(error());
    }

    default <R> Outcome<R> flatMap(Function<? super T, Outcome<R>> fn) {
        if (this instanceof Ok<T> o) {
            return fn.apply(o.value());
        }
        return fail(error());
    }

    /** Runs {@code action} on success and returns this outcome unchanged. */
    default Outcome<T> peek(Consumer<? super T> action) {
        if (this instanceof Ok<T> o) {
            action.accept(o.value());
        }
        return this;
    }

    /** Runs {@code action} on failure and returns this outcome unchanged. */
    default Outcome<T> onFail(Consumer<AcmeError> action) {
        if (this instanceof Fail<T> f) {
            action.accept(f.error());
        }
        return this;
    }

    default Outcome<T> recover(Function<AcmeError, Outcome<T>> fallback) {
        return this instanceof Fail<T> f ? fallback.apply(f.error()) : this;
    }

    default T orElse(T fallback) {
        return this instanceof Ok<T> o ? o.value() : fallback;
    }

    /** Returns the value or throws {@link AcmeException} carrying the error. */
    default T orElseThrow() {
        if (this instanceof Ok<T> o) {
            return o.value();
        }
        throw new AcmeException(error());
    }
}
