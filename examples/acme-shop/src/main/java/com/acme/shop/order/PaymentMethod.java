package com.acme.shop.order;

import com.acme.platform.core.Guard;
import com.acme.shop.customer.CustomerId;

/**
 * How a customer pays for an order. Card data never reaches Acme services: a card is
 * represented by the payment vault's token plus the last four digits for display.
 */
public sealed interface PaymentMethod permits PaymentMethod.Card, PaymentMethod.BankTransfer, PaymentMethod.StoreCredit {

    /** Stable name used in audit entries and events: {@code card}, {@code bank-transfer}, {@code store-credit}. */
    String kind();

    /** Whether the charge is captured synchronously. Bank transfers settle later and consume credit. */
    default boolean capturesImmediately() {
        return true;
    }

    record Card(String vaultToken, String last4) implements PaymentMethod {
        public Card {
            Guard.requireText(vaultToken, "vaultToken");
            Guard.requireText(last4, "last4", 4);
        }

        @Override
        public String kind() {
            return "card";
        }
    }

    record BankTransfer(String iban, int settlementDays) implements PaymentMethod {
        public BankTransfer(String iban) {
            this(iban, 3);
        }

        public BankTransfer {
            iban = Guard.requireText(iban, "iban", 34).replace(" ", "");
            Guard.requirePositive(settlementDays, "settlementDays");
        }

        @Override
        public String kind() {
            return "bank-transfer";
        }

        @Override
        public boolean capturesImmediately() {
            return false;
        }
    }

    /** Pays from the holder's store-credit balance; the holder must be the ordering customer. */
    record StoreCredit(CustomerId holder) implements PaymentMethod {
        public StoreCredit {
            Guard.requireNonNull(holder, "holder");
        }

        @Override
        public String kind() {
            return "store-credit";
        }
    }
}
