package com.acme.platform.core;

/**
 * Unchecked exception wrapping an {@link AcmeError}. Thrown by {@link Guard} on
 * precondition violations and by {@link Outcome#orElseThrow()}. Service code should
 * prefer returning {@link Outcome#fail(AcmeError)} for expected failures.
 */
public class AcmeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient AcmeError error;

    public AcmeException(AcmeError error) {
        super(error.toString());
        this.error = error;
    }

    public AcmeException(AcmeError error, Throwable cause) {
        super(error.toString(), cause);
        this.error = error;
    }

    public AcmeError error() {
        return error;
    }
}
