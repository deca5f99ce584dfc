package io.lakestream.connectors.kafka.security;

import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_KEYSTORE_LOCATION;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_KEYSTORE_PASSWORD;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_KEYSTORE_TYPE;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_KEY_PASSWORD;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_TRUSTSTORE_LOCATION;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_TRUSTSTORE_PASSWORD;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SSL_TRUSTSTORE_TYPE;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Validates the {@code kafka.ssl.*} options and turns them into client properties. */
final class TlsStores {

  private static final Set<String> STORE_TYPES = Set.of("JKS", "PKCS12", "PEM");

  private TlsStores() {}

  static Map<String, String> clientProperties(Map<String, String> options) {
    Map<String, String> props = new LinkedHashMap<>();
    for (var option : KafkaSecurityOptions.ALL) {
      String key = option.key();
      if (key.startsWith("kafka.ssl.") && options.containsKey(key)) {
        props.put(key.substring(KafkaSecurityOptions.PREFIX.length()), options.get(key));
      }
    }
    checkStore(
        options, SSL_TRUSTSTORE_LOCATION.key(), SSL_TRUSTSTORE_TYPE.key(), null, "trust store");
    checkStore(
        options,
        SSL_KEYSTORE_LOCATION.key(),
        SSL_KEYSTORE_TYPE.key(),
        SSL_KEYSTORE_PASSWORD.key(),
        "key store");
    if (options.containsKey(SSL_KEY_PASSWORD.key())
        && !options.containsKey(SSL_KEYSTORE_LOCATION.key())) {
      throw new InvalidKafkaOptionException(
          SSL_KEY_PASSWORD.key(), "is set but kafka.ssl.keystore.location is not: set both");
    }
    if (options.containsKey(SSL_TRUSTSTORE_PASSWORD.key())
        && !options.containsKey(SSL_TRUSTSTORE_LOCATION.key())) {
      throw new InvalidKafkaOptionException(
          SSL_TRUSTSTORE_PASSWORD.key(),
          "is set but kafka.ssl.truststore.location is not: set both");
    }
    String algorithm = options.get(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM.key());
    if (algorithm != null && !algorithm.isEmpty() && !algorithm.equalsIgnoreCase("https")) {
      throw new InvalidKafkaOptionException(
          SSL_ENDPOINT_IDENTIFICATION_ALGORITHM.key(),
          "'" + algorithm + "' is not supported; valid: https, or empty to skip host name checks");
    }
    return props;
  }

  private static void checkStore(
      Map<String, String> options,
      String locationKey,
      String typeKey,
      String passwordKey,
      String what) {
    String type = options.get(typeKey);
    if (type != null && !STORE_TYPES.contains(type.toUpperCase(Locale.ROOT))) {
      throw new InvalidKafkaOptionException(
          typeKey, "'" + type + "' is not a store type; valid: " + STORE_TYPES);
    }
    String location = options.get(locationKey);
    if (location == null) {
      if (type != null) {
        throw new InvalidKafkaOptionException(typeKey, "is set but " + locationKey + " is not");
      }
      return;
    }
    if (!Files.isReadable(Path.of(location))) {
      throw new InvalidKafkaOptionException(
          locationKey,
          "the " + what + " file " + location + " does not exist or cannot be read on this host");
    }
    boolean pem = type != null && type.equalsIgnoreCase("PEM");
    if (passwordKey != null && !pem && options.get(passwordKey) == null) {
      throw new InvalidKafkaOptionException(
          passwordKey, "required with a " + (type == null ? "JKS" : type) + " " + what);
    }
  }
}
