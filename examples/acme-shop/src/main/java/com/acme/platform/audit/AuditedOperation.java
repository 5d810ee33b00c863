package com.acme.platform.audit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a service method whose successful execution must be written to the
 * {@link AuditLedger}. The annotation itself does nothing at runtime: the method must
 * call {@link AuditLedger#record(Class, String, String, java.util.Map)} with its own
 * name, which reads the operation name and sensitivity from here.
 *
 * <p>Operation names are dotted, lower case, {@code <aggregate>.<verb>}, e.g.
 * {@code order.place}. Compliance reports group by them; do not rename.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AuditedOperation {

    /** Operation name, e.g. {@code invoice.issue}. */
    String value();

    Sensitivity sensitivity() default Sensitivity.INTERNAL;

    /** Classification used for retention: FINANCIAL entries are kept 10 years, PERSONAL_DATA is masked. */
    enum Sensitivity {
        PUBLIC,
        INTERNAL,
        FINANCIAL,
        PERSONAL_DATA
    }
}
