package com.acme.shop.customer;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;
import com.acme.platform.persistence.Entity;
import com.acme.platform.tenant.TenantScope;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Locale;

/** A buying customer of one tenant. Create with {@link #builder()}. */
public class Customer extends Entity {

    /** Loyalty tier; drives the order discount. */
    public enum Tier {
        STANDARD(BigDecimal.ZERO),
        SILVER(new BigDecimal("2.5")),
        GOLD(new BigDecimal("5"));

        private final BigDecimal discountPercent;

        Tier(BigDecimal discountPercent) {
            this.discountPercent = discountPercent;
        }

        public BigDecimal discountPercent() {
            return discountPercent;
        }
    }

    private final String displayName;
    private final String email;
    private final Currency billingCurrency;
    private Tier tier;

    private Customer(Builder b) {
        super(b.id.value(), TenantScope.current());
        this.displayName = Guard.requireText(b.displayName, "displayName", 120);
        this.email = Guard.requireText(b.email, "email", 254).toLowerCase(Locale.ROOT);
        Guard.requireThat(email.contains("@"), AcmeError.Code.VALIDATION_FAILED, "email: not an address");
        this.billingCurrency = Guard.requireNonNull(b.billingCurrency, "billingCurrency");
        this.tier = Guard.requireNonNull(b.tier, "tier");
    }

    public static Builder builder() {
        return new Builder();
    }

    public CustomerId customerId() {
        return new CustomerId(id());
    }

    public String displayName() {
        return displayName;
    }

    public String email() {
        return email;
    }

    public Currency billingCurrency() {
        return billingCurrency;
    }

    public Tier tier() {
        return tier;
    }

    @Override
    public String naturalKey() {
        return email;
    }

    /** Fluent builder; the customer belongs to the current tenant scope. */
    public static final class Builder {
        private CustomerId id;
        private String displayName;
        private String email;
        private Currency billingCurrency = Currency.getInstance("EUR");
        private Tier tier = Tier.STANDARD;

        private Builder() {}

        public Builder id(CustomerId id) {
            this.id = id;
            return this;
        }

        public Builder displayName(String displayName) {
            this.displayName = displayName;
            return this;
        }

        public Builder email(String email) {
            this.email = email;
            return this;
        }

        public Builder billingCurrency(String currencyCode) {
            this.billingCurrency = Currency.getInstance(currencyCode);
            return this;
        }

        public Builder tier(Tier tier) {
            this.tier = tier;
            return this;
        }

        public Customer build() {
            Guard.requireNonNull(id, "id");
            return new Customer(this);
        }
    }
}
