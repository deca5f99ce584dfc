package io.lakestream.connectors.kinesis.source.fanout;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.kinesis.KinesisErrorClass;
import io.lakestream.connectors.kinesis.KinesisSourceConfig;
import io.lakestream.connectors.kinesis.KinesisSourceConfig.FanOut;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ConsumerDescription;
import software.amazon.awssdk.services.kinesis.model.ConsumerStatus;
import software.amazon.awssdk.services.kinesis.model.DescribeStreamConsumerRequest;
import software.amazon.awssdk.services.kinesis.model.LimitExceededException;
import software.amazon.awssdk.services.kinesis.model.ResourceInUseException;
import software.amazon.awssdk.services.kinesis.model.ResourceNotFoundException;

/**
 * The enhanced fan-out consumer of a source: {@link #activeArn} registers it (named {@code
 * lakestream_<consumerName>}, by default the query id) unless it exists, or finds the one given by
 * option registeredConsumerId, and waits until it is ACTIVE; {@link #deregister} removes a consumer
 * the source registered. Registering twice is harmless (the enumerator and each reader call {@link
 * #activeArn}). Failures are {@code KINESIS_SOURCE_CONSUMER_FAILED} naming the option to change:
 * the stream's consumer limit, a consumer that does not exist, no permission.
 */
@Internal
public final class FanOutConsumer {
  private static final Logger LOG = LoggerFactory.getLogger(FanOutConsumer.class);
  private static final Duration ACTIVE_TIMEOUT = Duration.ofMinutes(2);

  private FanOutConsumer() {}

  /**
   * The ARN of the source's consumer once ACTIVE, registering it first if it does not exist (only
   * when not given by registeredConsumerId).
   *
   * @throws LakestreamException {@code KINESIS_SOURCE_CONSUMER_FAILED}
   */
  public static String activeArn(KinesisSourceConfig config, KinesisClient client) {
    FanOut fanOut = config.fanOut();
    long deadline = System.nanoTime() + ACTIVE_TIMEOUT.toNanos();
    try {
      DescribeStreamConsumerRequest describe = describeRequest(config, client);
      while (true) {
        ConsumerDescription consumer = describe(client, describe);
        if (consumer == null) {
          if (fanOut.registeredId() != null) {
            throw failed(
                config,
                "consumer " + fanOut.registeredId() + " does not exist",
                "Check options registeredConsumerId and registeredConsumerIdType, or leave"
                    + " registeredConsumerId unset to register a consumer",
                null);
          }
          register(client, describe);
        } else if (consumer.consumerStatus() == ConsumerStatus.ACTIVE) {
          return consumer.consumerARN();
        }
        if (System.nanoTime() > deadline) {
          throw failed(
              config,
              "consumer " + name(describe) + " did not become ACTIVE within " + ACTIVE_TIMEOUT,
              "Check its state with DescribeStreamConsumer",
              null);
        }
        Thread.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failed(config, "interrupted while waiting for the consumer", "", e);
    } catch (LimitExceededException e) {
      throw failed(
          config,
          "the stream has as many consumers as Kinesis allows (" + e.getMessage() + ")",
          "Reuse a consumer with option registeredConsumerId, deregister unused consumers, or"
              + " read with consumerMode polling",
          e);
    } catch (AwsServiceException e) {
      throw failed(config, e.getMessage(), advice(e), e);
    } catch (SdkException e) {
      throw failed(
          config,
          e.getMessage(),
          "Check options endpoint and region, or use consumerMode polling",
          e);
    }
  }

  /**
   * Deregisters the consumer this source registered (not a registeredConsumerId); logs failures.
   */
  public static void deregister(KinesisSourceConfig config, KinesisClient client) {
    FanOut fanOut = config.fanOut();
    if (fanOut == null || !fanOut.deregister() || fanOut.registeredId() != null) {
      return;
    }
    try {
      DescribeStreamConsumerRequest describe = describeRequest(config, client);
      client.deregisterStreamConsumer(
          r -> r.streamARN(describe.streamARN()).consumerName(describe.consumerName()));
      LOG.info("Deregistered consumer {} of {}", describe.consumerName(), config.describe());
    } catch (ResourceNotFoundException e) {
      // already gone
    } catch (SdkException e) {
      LOG.warn(
          "Could not deregister the consumer of {} (option requireConsumerDeregistration)",
          config.describe(),
          e);
    }
  }

  private static DescribeStreamConsumerRequest describeRequest(
      KinesisSourceConfig config, KinesisClient client) {
    FanOut fanOut = config.fanOut();
    if (fanOut.registeredId() != null && fanOut.registeredIdIsArn()) {
      return DescribeStreamConsumerRequest.builder().consumerARN(fanOut.registeredId()).build();
    }
    String streamArn =
        client
            .describeStreamSummary(r -> r.streamName(config.streamName()))
            .streamDescriptionSummary()
            .streamARN();
    String name =
        fanOut.registeredId() != null
            ? fanOut.registeredId()
            : FanOut.PREFIX + fanOut.consumerName();
    return DescribeStreamConsumerRequest.builder().streamARN(streamArn).consumerName(name).build();
  }

  private static ConsumerDescription describe(
      KinesisClient client, DescribeStreamConsumerRequest request) {
    try {
      return client.describeStreamConsumer(request).consumerDescription();
    } catch (ResourceNotFoundException e) {
      return null;
    }
  }

  private static void register(KinesisClient client, DescribeStreamConsumerRequest describe) {
    try {
      client.registerStreamConsumer(
          r -> r.streamARN(describe.streamARN()).consumerName(describe.consumerName()));
      LOG.info("Registered stream consumer {}", describe.consumerName());
    } catch (ResourceInUseException e) {
      // registered meanwhile (by the enumerator or another reader)
    }
  }

  private static String name(DescribeStreamConsumerRequest describe) {
    return describe.consumerName() != null ? describe.consumerName() : describe.consumerARN();
  }

  /** What to change for a service error of the consumer or subscription calls. */
  static String advice(AwsServiceException e) {
    String code = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode();
    if (e.statusCode() == 403 || (code != null && code.contains("AccessDenied"))) {
      return "The credentials (awsAccessKey/awsSecretKey or the default chain) need"
          + " kinesis:RegisterStreamConsumer, DescribeStreamConsumer and SubscribeToShard; or read"
          + " with consumerMode polling";
    }
    return "Check options streamName, region, endpoint and consumerName";
  }

  static LakestreamException failed(
      KinesisSourceConfig config, String what, String advice, Throwable cause) {
    return new LakestreamException(
        KinesisErrorClass.KINESIS_SOURCE_CONSUMER_FAILED,
        "Cannot use the enhanced fan-out consumer of "
            + config.describe()
            + " (option consumerMode efo): "
            + what
            + (advice.isEmpty() ? "" : ". " + advice),
        cause);
  }
}
