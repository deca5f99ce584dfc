package io.lakestream.connectors.autoloader.notification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Stands in for Amazon SNS, which the test SQS server (ElasticMQ) does not implement: SNS's Query
 * protocol (form-encoded {@code Action=...} POSTs, XML answers and errors as SNS sends them) on
 * 127.0.0.1 for CreateTopic, TagResource, SetTopicAttributes, Subscribe, ListTopics,
 * ListSubscriptionsByTopic, Unsubscribe, DeleteTopic and Publish, in region {@code us-east-1},
 * account {@code 000000000000}.
 *
 * <p>{@link #publishFromS3} is S3 publishing a bucket event to a topic: refused unless the topic's
 * policy lets {@code s3.amazonaws.com} publish for that bucket, as SNS would. Delivery to an {@code
 * sqs} subscription sends SNS's JSON envelope (the raw message with the subscription attribute
 * {@code RawMessageDelivery=true}) to the ElasticMQ queue the endpoint ARN names, refused when the
 * queue reports a policy that does not let {@code sns.amazonaws.com} send for that topic, as SQS
 * would (ElasticMQ keeps no policies, so {@link #allows} is tested on Auto Loader's own). {@link
 * #refuse} makes every call fail with SNS's AuthorizationError.
 */
public final class SnsPeer implements AutoCloseable {
  private static final String XMLNS = "http://sns.amazonaws.com/doc/2010-03-31/";
  private static final String ARN_PREFIX = "arn:aws:sns:us-east-1:000000000000:";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A topic: its attributes and tags. */
  private record Topic(Map<String, String> attributes, Map<String, String> tags) {}

  /** A subscription of a topic. */
  private record Sub(String arn, String topicArn, String protocol, String endpoint, boolean raw) {}

  private final HttpServer server;
  private final SqsClient sqs;
  private final Map<String, Topic> topics = new LinkedHashMap<>();
  private final List<Sub> subscriptions = new ArrayList<>();
  private final AtomicReference<String> refusal = new AtomicReference<>();

  /**
   * @param sqs a client of the SQS server subscribed queues are on
   */
  public SnsPeer(SqsClient sqs) throws IOException {
    this.sqs = sqs;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** From now on every call fails with AuthorizationError saying {@code message}; null: none. */
  public void refuse(String message) {
    refusal.set(message);
  }

  /** The topics' ARNs. */
  public synchronized List<String> topicArns() {
    return List.copyOf(topics.keySet());
  }

  /** The tags of topic {@code arn} (empty when there is no such topic). */
  public synchronized Map<String, String> tags(String arn) {
    Topic topic = topics.get(arn);
    return topic == null ? Map.of() : Map.copyOf(topic.tags());
  }

  /** How many subscriptions topic {@code arn} has. */
  public synchronized long subscriptionCount(String arn) {
    return subscriptions.stream().filter(s -> s.topicArn().equals(arn)).count();
  }

  /**
   * S3 publishing {@code message}, an event of bucket {@code bucket}, to topic {@code topicArn}.
   *
   * @throws IllegalStateException if there is no such topic or its policy does not let S3 publish
   *     the bucket's events, or a subscribed queue's policy does not let the topic send
   */
  public synchronized void publishFromS3(String topicArn, String bucket, String message) {
    Topic topic = topics.get(topicArn);
    if (topic == null) {
      throw new IllegalStateException("no topic " + topicArn);
    }
    String policy = topic.attributes().get("Policy");
    if (!allows(policy, "s3.amazonaws.com", "SNS:Publish", topicArn, "arn:aws:s3:::" + bucket)) {
      throw new IllegalStateException("the policy of " + topicArn + " refuses S3: " + policy);
    }
    deliver(topicArn, message);
  }

  private void deliver(String topicArn, String message) {
    for (Sub sub : subscriptions) {
      if (!sub.topicArn().equals(topicArn) || !sub.protocol().equals("sqs")) {
        continue;
      }
      String queueUrl =
          sqs.getQueueUrl(b -> b.queueName(sub.endpoint().replaceAll(".*:", ""))).queueUrl();
      String policy =
          sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNamesWithStrings("Policy"))
              .attributesAsStrings()
              .get("Policy");
      if (policy != null // ElasticMQ keeps no queue policy: NotificationResourcesTest checks ours
          && !allows(policy, "sns.amazonaws.com", "sqs:SendMessage", sub.endpoint(), topicArn)) {
        throw new IllegalStateException("the policy of " + queueUrl + " refuses SNS: " + policy);
      }
      String body = sub.raw() ? message : envelope(topicArn, message);
      sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(body));
    }
  }

  private static String envelope(String topicArn, String message) {
    ObjectNode envelope = JSON.createObjectNode();
    envelope.put("Type", "Notification");
    envelope.put("MessageId", UUID.randomUUID().toString());
    envelope.put("TopicArn", topicArn);
    envelope.put("Subject", "Amazon S3 Notification");
    envelope.put("Message", message);
    envelope.put("Timestamp", Instant.now().toString());
    envelope.put("SignatureVersion", "1");
    envelope.put("Signature", "c2lnbmF0dXJl");
    envelope.put("SigningCertURL", "https://sns.us-east-1.amazonaws.com/cert.pem");
    envelope.put("UnsubscribeURL", "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe");
    return envelope.toString();
  }

  /**
   * Whether IAM policy {@code json} has an Allow statement for {@code service} doing {@code action}
   * on {@code resource} whose ArnLike/ArnEquals aws:SourceArn condition matches {@code sourceArn}.
   */
  static boolean allows(
      String json, String service, String action, String resource, String sourceArn) {
    if (json == null) {
      return false;
    }
    try {
      for (JsonNode statement : JSON.readTree(json).path("Statement")) {
        JsonNode condition = statement.path("Condition");
        String pattern =
            condition
                .path("ArnLike")
                .path("aws:SourceArn")
                .asText(condition.path("ArnEquals").path("aws:SourceArn").asText(""));
        if (statement.path("Effect").asText().equals("Allow")
            && statement.path("Principal").path("Service").asText().equals(service)
            && statement.path("Action").asText().equalsIgnoreCase(action)
            && statement.path("Resource").asText().equals(resource)
            && glob(pattern).matcher(sourceArn).matches()) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  private static Pattern glob(String arnPattern) {
    StringBuilder regex = new StringBuilder();
    for (String part : arnPattern.split("\\*", -1)) {
      regex.append(Pattern.quote(part)).append(".*");
    }
    return Pattern.compile(regex.substring(0, regex.length() - 2));
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> params =
        form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    String action = params.getOrDefault("Action", "");
    if (refusal.get() != null) {
      error(exchange, 403, "AuthorizationError", refusal.get());
      return;
    }
    String result;
    synchronized (this) {
      result = answer(action, params);
    }
    if (result == null) {
      error(exchange, 404, "NotFound", "Topic does not exist");
    } else if (result.equals("?")) {
      error(exchange, 400, "InvalidAction", "The action " + action + " is not valid");
    } else {
      String xml =
          "<"
              + action
              + "Response xmlns=\""
              + XMLNS
              + "\">"
              + result
              + "<ResponseMetadata><RequestId>"
              + UUID.randomUUID()
              + "</RequestId></ResponseMetadata></"
              + action
              + "Response>";
      respond(exchange, 200, xml);
    }
  }

  /** The result element of {@code action}; null for a missing topic, "?" for an unknown action. */
  private String answer(String action, Map<String, String> p) {
    switch (action) {
      case "CreateTopic":
        String arn = ARN_PREFIX + p.get("Name");
        topics.computeIfAbsent(arn, a -> new Topic(new LinkedHashMap<>(), new LinkedHashMap<>()));
        return "<CreateTopicResult><TopicArn>" + arn + "</TopicArn></CreateTopicResult>";
      case "TagResource":
        Topic tagged = topics.get(p.get("ResourceArn"));
        if (tagged == null) {
          return null;
        }
        for (int i = 1; p.containsKey("Tags.member." + i + ".Key"); i++) {
          tagged
              .tags()
              .put(p.get("Tags.member." + i + ".Key"), p.get("Tags.member." + i + ".Value"));
        }
        return "<TagResourceResult/>";
      case "SetTopicAttributes":
        Topic topic = topics.get(p.get("TopicArn"));
        if (topic == null) {
          return null;
        }
        topic.attributes().put(p.get("AttributeName"), p.get("AttributeValue"));
        return "";
      case "Subscribe":
        return subscribe(p);
      case "ListTopics":
        StringBuilder members = new StringBuilder();
        topics
            .keySet()
            .forEach(
                t -> members.append("<member><TopicArn>").append(t).append("</TopicArn></member>"));
        return "<ListTopicsResult><Topics>" + members + "</Topics></ListTopicsResult>";
      case "ListSubscriptionsByTopic":
        return listSubscriptions(p.get("TopicArn"));
      case "Unsubscribe":
        subscriptions.removeIf(s -> s.arn().equals(p.get("SubscriptionArn")));
        return "";
      case "DeleteTopic":
        topics.remove(p.get("TopicArn"));
        subscriptions.removeIf(s -> s.topicArn().equals(p.get("TopicArn")));
        return "";
      case "Publish":
        if (!topics.containsKey(p.get("TopicArn"))) {
          return null;
        }
        deliver(p.get("TopicArn"), p.get("Message"));
        return "<PublishResult><MessageId>" + UUID.randomUUID() + "</MessageId></PublishResult>";
      default:
        return "?";
    }
  }

  /** SNS's Subscribe: an existing subscription of the same topic, protocol and endpoint is kept. */
  private String subscribe(Map<String, String> p) {
    String topicArn = p.get("TopicArn");
    if (!topics.containsKey(topicArn)) {
      return null;
    }
    boolean raw = false;
    for (int i = 1; p.containsKey("Attributes.entry." + i + ".key"); i++) {
      raw |=
          p.get("Attributes.entry." + i + ".key").equals("RawMessageDelivery")
              && p.get("Attributes.entry." + i + ".value").equals("true");
    }
    Sub sub =
        subscriptions.stream()
            .filter(
                s ->
                    s.topicArn().equals(topicArn)
                        && s.protocol().equals(p.get("Protocol"))
                        && s.endpoint().equals(p.get("Endpoint")))
            .findFirst()
            .orElse(null);
    if (sub == null) {
      sub =
          new Sub(
              topicArn + ":" + UUID.randomUUID(),
              topicArn,
              p.get("Protocol"),
              p.get("Endpoint"),
              raw);
      subscriptions.add(sub);
    }
    return "<SubscribeResult><SubscriptionArn>"
        + sub.arn()
        + "</SubscriptionArn></SubscribeResult>";
  }

  private String listSubscriptions(String topicArn) {
    if (!topics.containsKey(topicArn)) {
      return null;
    }
    StringBuilder members = new StringBuilder();
    for (Sub s : subscriptions) {
      if (s.topicArn().equals(topicArn)) {
        members
            .append("<member><TopicArn>")
            .append(topicArn)
            .append("</TopicArn><Protocol>")
            .append(s.protocol())
            .append("</Protocol><SubscriptionArn>")
            .append(s.arn())
            .append("</SubscriptionArn><Owner>000000000000</Owner><Endpoint>")
            .append(s.endpoint())
            .append("</Endpoint></member>");
      }
    }
    return "<ListSubscriptionsByTopicResult><Subscriptions>"
        + members
        + "</Subscriptions></ListSubscriptionsByTopicResult>";
  }

  private static Map<String, String> form(String body) {
    Map<String, String> params = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        params.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return params;
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    respond(
        exchange,
        status,
        "<ErrorResponse xmlns=\""
            + XMLNS
            + "\"><Error><Type>Sender</Type><Code>"
            + code
            + "</Code><Message>"
            + message
            + "</Message></Error><RequestId>"
            + UUID.randomUUID()
            + "</RequestId></ErrorResponse>");
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
