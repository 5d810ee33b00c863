package com.acme.shop.inventory;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Stock keeping unit in Acme format: three-letter category, dash, 4–6 digits
 * ({@code FOD-10023}). The category prefix drives tax treatment (see {@code TaxPolicy}).
 */
public record Sku(String code) {

    private static final Pattern FORMAT = Pattern.compile("[A-Z]{3}-\\d{4,6}");

    public Sku {
        code = Guard.requireText(code, "sku").toUpperCase(Locale.ROOT);
        Guard.requireThat(FORMAT.matcher(code).matches(), AcmeError.Code.VALIDATION_FAILED,
                "sku: malformed code " + code);
    }

    public String category() {
        return code.substring(0, 3);
    }

    @Override
    public String toString() {
        return code;
    }
}
