package com.acme.platform.config;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.AcmeException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * Typed access to {@code application.properties}. JVM system properties with the same key
 * override file values (this is how deployments inject secrets; never log raw settings).
 *
 * <p>Keys are kebab-case under {@code acme.}; feature flags live under
 * {@code acme.features.}; durations are integers with a unit suffix in the key ({@code -ms}).
 */
public final class AcmeSettings {

    public static final String DEFAULT_RESOURCE = "application.properties";

    private final Properties properties;

    private AcmeSettings(Properties properties) {
        this.properties = properties;
    }

    /** Loads {@code application.properties} from the classpath; a missing file yields empty settings. */
    public static AcmeSettings load() {
        String resource = DEFAULT_RESOURCE;
        Properties props = new Properties();
        try (InputStream in = AcmeSettings.class.getClassLoader().getResourceAsStream(resource)) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
        System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("acme."))
                .forEach(k -> props.setProperty(k, System.getProperty(k)));
        return new AcmeSettings(props);
    }

    public static AcmeSettings of(Map<String, String> values) {
        Properties props = new Properties();
        props.putAll(values);
        return new AcmeSettings(props);
    }

    /** A required setting. */
    public String text(String key) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new AcmeException(AcmeError.of(AcmeError.Code.INTERNAL, "missing setting " + key));
        }
        return value.strip();
    }

    public String text(String key, String fallback) {
        String value = properties.getProperty(key);
        return value == null || value.isBlank() ? fallback : value.strip();
    }

    public int integer(String key, int fallback) {
        String value = properties.getProperty(key);
        return value == null ? fallback : Integer.parseInt(value.strip());
    }

    public boolean flag(String key, boolean fallback) {
        String value = properties.getProperty(key);
        return value == null ? fallback : Boolean.parseBoolean(value.strip());
    }

    public boolean featureEnabled(String feature) {
        return flag("acme.features." + feature, false);
    }
}
