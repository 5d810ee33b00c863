package com.acme.shop.customer;

import com.acme.platform.audit.AuditLedger;
import com.acme.platform.audit.AuditedOperation;
import com.acme.platform.audit.AuditedOperation.Sensitivity;
import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.ids.SnowflakeIds;
import com.acme.platform.money.Money;
import com.acme.platform.money.MoneyMath;

import java.util.Map;

/** Customer registration, lookup and the commercial terms that depend on the customer. */
public class CustomerService {

    private final CustomerRepository customers;
    private final SnowflakeIds ids;
    private final AuditLedger audit;

    public CustomerService(CustomerRepository customers, SnowflakeIds ids, AuditLedger audit) {
        this.customers = customers;
        this.ids = ids;
        this.audit = audit;
    }

    /** Registers a {@link Customer.Tier#STANDARD} customer billed in EUR. */
    public Outcome<Customer> register(String displayName, String email) {
        return register(displayName, email, Customer.Tier.STANDARD, "EUR");
    }

    /**
     * Registers a customer. Emails are unique per tenant (case-insensitive).
     *
     * @return the new customer, {@code CONFLICT} if the email is taken, or
     *         {@code VALIDATION_FAILED} for malformed input
     */
    @AuditedOperation(value = "customer.register", sensitivity = Sensitivity.PERSONAL_DATA)
    public Outcome<Customer> register(String displayName, String email, Customer.Tier tier, String currencyCode) {
        return Outcome.attemptFlat(() -> {
            Customer customer = Customer.builder()
                    .id(CustomerId.of(ids.nextId()))
                    .displayName(displayName)
                    .email(email)
                    .tier(tier)
                    .billingCurrency(currencyCode)
                    .build();
            if (customers.emailTaken(customer.email())) {
                return Outcome.fail(AcmeError.conflict("email already registered").with("field", "email"));
            }
            customers.save(customer);
            audit.record(CustomerService.class, "register", customer.customerId().toString(),
                    Map.of("email", customer.email(), "tier", tier.name()));
            return Outcome.ok(customer);
        });
    }

    public Outcome<Customer> find(CustomerId id) {
        return customers.require(id);
    }

    /** Tier discount on an order subtotal, rounded per ledger convention. */
    public Money discountFor(Customer customer, Money subtotal) {
        return MoneyMath.percentOf(subtotal, customer.tier().discountPercent());
    }
}
