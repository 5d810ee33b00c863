package com.acme.platform.paging;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;

/**
 * A zero-based page request. Page size is capped at {@link #MAX_PAGE_SIZE}; API layers
 * should pass client input straight in and let the compact constructor validate it.
 */
public record PageRequest(int page, int size) {

    public static final int MAX_PAGE_SIZE = 200;
    public static final int DEFAULT_PAGE_SIZE = 25;

    public PageRequest {
        Guard.requireNonNegative(page, "page");
        Guard.requirePositive(size, "size");
        Guard.requireThat(size <= MAX_PAGE_SIZE, AcmeError.Code.VALIDATION_FAILED,
                "size must be at most " + MAX_PAGE_SIZE);
    }

    public static PageRequest first(int size) {
        return new PageRequest(0, size);
    }

    public static PageRequest of(int page, int size) {
        return new PageRequest(page, size);
    }

    public PageRequest next() {
        return new PageRequest(page + 1, size);
    }

    public long offset() {
        return (long) page * size;
    }
}
