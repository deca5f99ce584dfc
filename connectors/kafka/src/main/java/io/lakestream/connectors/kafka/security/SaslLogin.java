package io.lakestream.connectors.kafka.security;

import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SASL_CLIENT_CALLBACK_HANDLER_CLASS;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SASL_JAAS_CONFIG;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SASL_MECHANISM;
import static io.lakestream.connectors.kafka.security.KafkaSecurityOptions.SECURITY_PROTOCOL;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validated SASL part of a {@link KafkaClientSecurity}: mechanism, JAAS config (real class
 * names), callback handler and who logs in. Error messages never quote the JAAS config.
 */
record SaslLogin(
    KafkaSaslMechanism mechanism,
    String jaasConfig,
    Optional<String> callbackHandler,
    String principal,
    Set<String> secrets) {

  private static final Logger LOG = LoggerFactory.getLogger(SaslLogin.class);

  static SaslLogin from(
      Map<String, String> options, KafkaSecurityProtocol protocol, Set<String> knownSecrets) {
    String mechanismName = options.get(SASL_MECHANISM.key());
    if (mechanismName == null || mechanismName.isBlank()) {
      throw new InvalidKafkaOptionException(
          SASL_MECHANISM.key(),
          "required when kafka.security.protocol is "
              + protocol
              + "; valid: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, AWS_MSK_IAM");
    }
    KafkaSaslMechanism mechanism = KafkaSaslMechanism.parse(SASL_MECHANISM.key(), mechanismName);
    String rawJaas = options.get(SASL_JAAS_CONFIG.key());
    String handlerOption = options.get(SASL_CLIENT_CALLBACK_HANDLER_CLASS.key());
    Set<String> secrets = new LinkedHashSet<>(knownSecrets);
    if (mechanism == KafkaSaslMechanism.AWS_MSK_IAM) {
      return iam(protocol, rawJaas, handlerOption, secrets);
    }
    if (handlerOption != null) {
      throw new InvalidKafkaOptionException(
          SASL_CLIENT_CALLBACK_HANDLER_CLASS.key(),
          "is only supported with kafka.sasl.mechanism=AWS_MSK_IAM; "
              + mechanism
              + " logs in with the user name and password of kafka.sasl.jaas.config: remove it");
    }
    if (rawJaas == null || rawJaas.isBlank()) {
      throw new InvalidKafkaOptionException(
          SASL_JAAS_CONFIG.key(),
          "required with kafka.sasl.mechanism="
              + mechanism
              + ", e.g. "
              + mechanism.loginModule()
              + " required username=\"<user>\" password=\"<password>\";");
    }
    String jaas = KafkaClientSecurity.unshade(rawJaas.trim());
    secrets.add(jaas);
    AppConfigurationEntry entry = parse(jaas, mechanism, secrets);
    Object user = entry.getOptions().get("username");
    Object password = entry.getOptions().get("password");
    if (user == null
        || user.toString().isBlank()
        || password == null
        || password.toString().isEmpty()) {
      throw new InvalidKafkaOptionException(
          SASL_JAAS_CONFIG.key(),
          "the "
              + simpleName(mechanism.loginModule())
              + " entry needs both username=\"...\" and password=\"...\" (found "
              + (user == null || user.toString().isBlank() ? "no username" : "username " + user)
              + (password == null || password.toString().isEmpty() ? ", no password" : "")
              + ")");
    }
    if (mechanism == KafkaSaslMechanism.PLAIN && !protocol.usesTls()) {
      LOG.warn(
          "Kafka user '{}' logs in with SASL PLAIN over {}: the password crosses the network"
              + " unencrypted; use SASL_SSL or SCRAM",
          user,
          protocol);
    }
    return new SaslLogin(mechanism, jaas, Optional.empty(), user.toString(), secrets);
  }

  private static SaslLogin iam(
      KafkaSecurityProtocol protocol, String rawJaas, String handlerOption, Set<String> secrets) {
    if (protocol != KafkaSecurityProtocol.SASL_SSL) {
      throw new InvalidKafkaOptionException(
          SECURITY_PROTOCOL.key(),
          "AWS_MSK_IAM works only over TLS: set kafka.security.protocol=SASL_SSL (was "
              + protocol
              + ")");
    }
    String jaas =
        rawJaas == null || rawJaas.isBlank()
            ? KafkaClientSecurity.iamDefaultJaas()
            : KafkaClientSecurity.unshade(rawJaas.trim());
    if (rawJaas != null && !rawJaas.isBlank()) {
      secrets.add(jaas);
    }
    AppConfigurationEntry entry = parse(jaas, KafkaSaslMechanism.AWS_MSK_IAM, secrets);
    String handler =
        handlerOption == null
            ? KafkaSaslMechanism.IAM_CALLBACK_HANDLER
            : KafkaClientSecurity.unshade(handlerOption.trim());
    if (!handler.equals(KafkaSaslMechanism.IAM_CALLBACK_HANDLER)) {
      throw new InvalidKafkaOptionException(
          SASL_CLIENT_CALLBACK_HANDLER_CLASS.key(),
          "AWS_MSK_IAM needs "
              + KafkaSaslMechanism.IAM_CALLBACK_HANDLER
              + " (or leave the option out), not "
              + handlerOption);
    }
    for (String className : new String[] {KafkaSaslMechanism.AWS_MSK_IAM.loginModule(), handler}) {
      try {
        Class.forName(className, false, SaslLogin.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        throw new InvalidKafkaOptionException(
            SASL_MECHANISM.key(),
            "AWS_MSK_IAM needs class "
                + className
                + " from library software.amazon.msk:aws-msk-iam-auth, which is not on the class"
                + " path ("
                + e
                + ")");
      }
    }
    Map<String, ?> iamOptions = entry.getOptions();
    String principal;
    if (iamOptions.get("awsRoleArn") != null) {
      principal = "IAM role " + iamOptions.get("awsRoleArn");
    } else if (iamOptions.get("awsProfileName") != null) {
      principal = "IAM profile " + iamOptions.get("awsProfileName");
    } else {
      principal = "IAM identity of the default AWS credentials chain";
    }
    return new SaslLogin(
        KafkaSaslMechanism.AWS_MSK_IAM, jaas, Optional.of(handler), principal, secrets);
  }

  /** Parses one JAAS entry for {@code mechanism}; collects its password-like values as secrets. */
  private static AppConfigurationEntry parse(
      String jaas, KafkaSaslMechanism mechanism, Set<String> secrets) {
    String expected =
        mechanism.loginModule()
            + " required"
            + (mechanism.usesPassword() ? " username=\"<user>\" password=\"<password>\"" : "")
            + ";";
    AppConfigurationEntry[] entries;
    try {
      entries =
          JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG, new Password(jaas)))
              .configurationEntries()
              .toArray(new AppConfigurationEntry[0]);
    } catch (RuntimeException e) {
      // Kafka's parser messages can quote parts of the config: not passed on.
      throw new InvalidKafkaOptionException(
          SASL_JAAS_CONFIG.key(),
          "is not a valid JAAS config (value not shown: it holds secrets); expected the form "
              + expected
              + " with double-quoted values and a final ';'");
    }
    if (entries == null || entries.length != 1) {
      throw new InvalidKafkaOptionException(
          SASL_JAAS_CONFIG.key(),
          "must hold exactly one login module entry, found "
              + (entries == null ? 0 : entries.length)
              + "; expected "
              + expected);
    }
    AppConfigurationEntry entry = entries[0];
    entry
        .getOptions()
        .forEach(
            (key, value) -> {
              String k = key.toLowerCase(Locale.ROOT);
              if ((k.contains("password") || k.contains("secret") || k.contains("token"))
                  && value != null
                  && !value.toString().isEmpty()) {
                secrets.add(value.toString());
              }
            });
    if (!entry.getLoginModuleName().equals(mechanism.loginModule())) {
      throw new InvalidKafkaOptionException(
          SASL_JAAS_CONFIG.key(),
          "kafka.sasl.mechanism="
              + mechanism
              + " needs login module "
              + mechanism.loginModule()
              + ", but the JAAS config names "
              + entry.getLoginModuleName()
              + "; expected "
              + expected);
    }
    return entry;
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
