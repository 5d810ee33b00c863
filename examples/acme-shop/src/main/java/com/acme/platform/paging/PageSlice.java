package com.acme.platform.paging;

import java.util.List;
import java.util.function.Function;

/**
 * One page of results plus the total count.
 *
 * @param items      the items on this page (immutable, never null)
 * @param page       zero-based page number
 * @param size       requested page size
 * @param totalItems number of items over all pages
 */
public record PageSlice<T>(List<T> items, int page, int size, long totalItems) {

    public PageSlice {
        items = List.copyOf(items);
    }

    /** Cuts the page described by {@code request} out of an already sorted list. */
    public static <T> PageSlice<T> of(List<T> all, PageRequest request) {
        int from = (int) Math.min(request.offset(), all.size());
        int to = Math.min(from + request.size(), all.size());
        return new PageSlice<>(all.subList(from, to), request.page(), request.size(), all.size());
    }

    public <R> PageSlice<R> map(Function<? super T, ? extends R> fn) {
        List<R> mapped = items.stream().<R>map(fn).toList();
        return new PageSlice<>(mapped, page, size, totalItems);
    }

    public boolean hasNext() {
        return (long) (page + 1) * size < totalItems;
    }
}
