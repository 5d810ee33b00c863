package com.acme.platform.events;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * In-process, synchronous event bus. Handlers run on the publishing thread, in
 * subscription order, after the publisher's state change. A failing handler does not stop
 * the others: its event goes to the dead-letter list and {@link #publish} still returns.
 *
 * <p>Handlers are matched by type, so subscribing to {@link DomainEvent} receives everything.
 */
public class DomainEventBus {

    /** Cancels a subscription when closed. */
    @FunctionalInterface
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    public record DeadLetter(DomainEvent event, String handler, RuntimeException failure) {}

    private record Handler<E extends DomainEvent>(Class<E> type, Consumer<? super E> consumer, String name) {
        boolean accepts(DomainEvent event) {
            return type.isInstance(event);
        }

        void deliver(DomainEvent event) {
            consumer.accept(type.cast(event));
        }
    }

    private final List<Handler<?>> handlers = new CopyOnWriteArrayList<>();
    private final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();

    public <E extends DomainEvent> Subscription subscribe(Class<E> type, Consumer<? super E> consumer, String name) {
        Handler<E> handler = new Handler<>(type, consumer, name);
        handlers.add(handler);
        return () -> handlers.remove(handler);
    }

    /**
     * Delivers {@code event} to every matching handler.
     *
     * @return number of handlers that processed the event without throwing
     */
    public int publish(DomainEvent event) {
        int delivered = 0;
        for (Handler<?> handler : handlers) {
            if (!handler.accepts(event)) {
                continue;
            }
            try {
                handler.deliver(event);
                delivered++;
            } catch (RuntimeException e) {
                deadLetters.add(new DeadLetter(event, handler.name(), e));
            }
        }
        return delivered;
    }

    public List<DeadLetter> deadLetters() {
        return new ArrayList<>(deadLetters);
    }
}
