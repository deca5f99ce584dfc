package io.lakestream.connectors.autoloader.notification;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.s3.model.TopicConfiguration;

/**
 * The policies and bucket notification configurations file notification mode sets up, without AWS:
 * the policies let exactly the intended sender in (ElasticMQ keeps no queue policy, so the
 * end-to-end test cannot see the queue's), and switching between the queue and the topic replaces
 * Auto Loader's notification alone.
 */
class NotificationResourcesTest {
  private static final String QUEUE = "arn:aws:sqs:eu-west-1:1:lakestream-auto-ingest-q";
  private static final String TOPIC = "arn:aws:sns:eu-west-1:1:lakestream-auto-ingest-q";

  @Test
  void theQueuePolicyLetsOnlyItsTopicSendAndTheTopicPolicyOnlyTheBucketsEvents() {
    String queue =
        NotificationResources.policy(QUEUE, "sqs:SendMessage", "sns.amazonaws.com", TOPIC);
    assertThat(SnsPeer.allows(queue, "sns.amazonaws.com", "sqs:SendMessage", QUEUE, TOPIC))
        .isTrue();
    assertThat(SnsPeer.allows(queue, "sns.amazonaws.com", "sqs:SendMessage", QUEUE, TOPIC + "-x"))
        .isFalse();
    assertThat(SnsPeer.allows(queue, "s3.amazonaws.com", "sqs:SendMessage", QUEUE, TOPIC))
        .isFalse();

    String topic =
        NotificationResources.policy(TOPIC, "SNS:Publish", "s3.amazonaws.com", "arn:aws:s3:*:*:b");
    assertThat(SnsPeer.allows(topic, "s3.amazonaws.com", "SNS:Publish", TOPIC, "arn:aws:s3:::b"))
        .isTrue();
    assertThat(SnsPeer.allows(topic, "s3.amazonaws.com", "SNS:Publish", TOPIC, "arn:aws:s3:::b2"))
        .isFalse();
  }

  @Test
  void topicReplacesOurQueueNotificationKeepsOthersAndIsIdempotent() {
    NotificationConfiguration others =
        NotificationConfiguration.builder()
            .queueConfigurations(QueueConfiguration.builder().id("other").queueArn("q").build())
            .topicConfigurations(TopicConfiguration.builder().id("other-t").topicArn("t").build())
            .build();
    NotificationConfiguration direct =
        NotificationResources.withQueue(others, "ours", QUEUE, "in/");
    assertThat(NotificationResources.withQueue(direct, "ours", QUEUE, "in/")).isSameAs(direct);

    NotificationConfiguration viaTopic =
        NotificationResources.withTopic(direct, "ours", TOPIC, "in/");
    assertThat(viaTopic.queueConfigurations())
        .extracting(QueueConfiguration::id)
        .containsExactly("other");
    assertThat(viaTopic.topicConfigurations())
        .extracting(TopicConfiguration::id, TopicConfiguration::topicArn)
        .hasSize(2)
        .last()
        .isEqualTo(org.assertj.core.groups.Tuple.tuple("ours", TOPIC));
    assertThat(viaTopic.topicConfigurations().get(1).filter().key().filterRules().get(0).value())
        .isEqualTo("in/");
    assertThat(NotificationResources.withTopic(viaTopic, "ours", TOPIC, "in/")).isSameAs(viaTopic);

    assertThat(NotificationResources.without(viaTopic, "ours")).isEqualTo(others);
    assertThat(NotificationResources.without(others, "ours")).isSameAs(others);
  }
}
