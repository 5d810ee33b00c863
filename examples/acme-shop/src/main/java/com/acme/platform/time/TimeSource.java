package com.acme.platform.time;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Source of "now". Acme code never calls {@code Instant.now()} or {@code LocalDate.now()}
 * directly; it receives a {@code TimeSource} so that tests and replays control time.
 */
@FunctionalInterface
public interface TimeSource {

    Instant now();

    default LocalDate today(ZoneId zone) {
        return LocalDate.ofInstant(now(), zone);
    }

    default LocalDate todayUtc() {
        return today(ZoneOffset.UTC);
    }

    static TimeSource system() {
        return Instant::now;
    }

    static TimeSource fixed(Instant instant) {
        return () -> instant;
    }

    /** A settable clock for tests. */
    final class Manual implements TimeSource {
        private Instant current;

        public Manual(Instant start) {
            this.current = start;
        }

        @Override
        public synchronized Instant now() {
            return current;
        }

        public synchronized Manual advance(Duration by) {
            current = current.plus(by);
            return this;
        }
    }
}
