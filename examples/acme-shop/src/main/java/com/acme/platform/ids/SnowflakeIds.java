package com.acme.platform.ids;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;
import com.acme.platform.time.TimeSource;

import java.time.Instant;

/**
 * 64-bit, time-ordered id generator: 41 bits of milliseconds since the Acme epoch
 * (2019-01-01T00:00:00Z), 10 bits of node id, 12 bits of per-millisecond sequence.
 *
 * <p>All entity ids in Acme come from here; never use database sequences or UUIDs for
 * aggregate ids. Node ids are assigned per deployment via {@code acme.ids.node}.
 */
public final class SnowflakeIds {

    public static final long ACME_EPOCH_MILLIS = 1_546_300_800_000L;

    private static final int NODE_BITS = 10;
    private static final int SEQUENCE_BITS = 12;
    private static final long MAX_NODE = (1L << NODE_BITS) - 1;
    private static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;

    private final long nodeId;
    private final TimeSource time;
    private long lastMillis = -1L;
    private long sequence;

    public SnowflakeIds(int nodeId, TimeSource time) {
        Guard.requireNonNegative(nodeId, "nodeId");
        Guard.requireThat(nodeId <= MAX_NODE, AcmeError.Code.VALIDATION_FAILED,
                "nodeId must be <= " + MAX_NODE);
        this.nodeId = nodeId;
        this.time = Guard.requireNonNull(time, "time");
    }

    public static SnowflakeIds forNode(int nodeId) {
        return new SnowflakeIds(nodeId, TimeSource.system());
    }

    public synchronized long nextId() {
        long now = Math.max(time.now().toEpochMilli(), lastMillis);
        if (now == lastMillis) {
            sequence = (sequence + 1) & SEQUENCE_MASK;
            if (sequence == 0) {
                now = lastMillis + 1;
            }
        } else {
            sequence = 0;
        }
        lastMillis = now;
        return ((now - ACME_EPOCH_MILLIS) << (NODE_BITS + SEQUENCE_BITS))
                | (nodeId << SEQUENCE_BITS)
                | sequence;
    }

    /** The creation instant encoded in an id. */
    public static Instant timestampOf(long id) {
        return Instant.ofEpochMilli((id >>> (NODE_BITS + SEQUENCE_BITS)) + ACME_EPOCH_MILLIS);
    }
}
