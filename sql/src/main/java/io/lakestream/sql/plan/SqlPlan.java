package io.lakestream.sql.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The plan a SQL query's run records in its checkpoint location ({@code plans/<run id>.json}): its
 * {@code INSERT} statements, the {@code DROP_DUPLICATES_WITHIN_WATERMARK} views it runs, the uids
 * its planner operators got, and Flink's compiled plan of its statements ({@code
 * StatementSet#compilePlan}, tables by identifier and schema, without their options), in which the
 * views are plain views of their input: a query reading a DataStream cannot be compiled, so the
 * views' own operator is described beside it. The compiled plan is absent when Flink could not
 * compile the statements; the restart is then checked by the fingerprint alone.
 *
 * @param statements the {@code INSERT}s, in script order
 * @param views the deduplication views the job runs
 * @param operatorUids the uids of the operators the planner created, as {@link OperatorUids} named
 *     them
 * @param flinkPlan Flink's compiled plan, or empty
 */
@Internal
public record SqlPlan(
    List<Statement> statements,
    List<DedupView> views,
    Set<String> operatorUids,
    Optional<JsonNode> flinkPlan) {

  /** This file's format version. */
  public static final int FORMAT = 1;

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * An {@code INSERT} statement.
   *
   * @param table its sink table, {@code catalog.database.table}
   * @param label how messages name it, e.g. {@code INSERT INTO totals}
   * @param position where it starts, e.g. {@code gold.sql:12:1}
   */
  public record Statement(String table, String label, String position) {}

  /**
   * A {@code DROP_DUPLICATES_WITHIN_WATERMARK} view.
   *
   * @param uid its operator's uid ({@code drop-duplicates-<view>})
   * @param view the view's name
   * @param keys the key columns, as declared
   * @param position where its statement starts
   */
  public record DedupView(String uid, String view, List<String> keys, String position) {
    public DedupView {
      keys = List.copyOf(keys);
    }
  }

  public SqlPlan {
    statements = List.copyOf(statements);
    views = List.copyOf(views);
    operatorUids = Set.copyOf(new LinkedHashSet<>(operatorUids));
  }

  /** The stateful operators of the compiled plan (none without one). */
  List<PlannedOperator> statefulOperators() {
    List<String> tables = statements.stream().map(Statement::table).toList();
    return flinkPlan.map(p -> StatefulOperators.of(p, tables)).orElse(List.of());
  }

  /** The statement with key {@code key} ({@link OperatorUids#statementKeys}), if any. */
  Optional<Statement> statement(String key) {
    List<String> keys =
        OperatorUids.statementKeys(statements.stream().map(Statement::table).toList());
    int i = keys.indexOf(key);
    return i < 0 ? Optional.empty() : Optional.of(statements.get(i));
  }

  /** This plan as stored. */
  public String toJson() {
    ObjectNode root = MAPPER.createObjectNode().put("format", FORMAT);
    ArrayNode inserts = root.putArray("statements");
    statements.forEach(
        s ->
            inserts
                .addObject()
                .put("table", s.table())
                .put("label", s.label())
                .put("position", s.position()));
    ArrayNode dedups = root.putArray("views");
    for (DedupView v : views) {
      ObjectNode view = dedups.addObject().put("uid", v.uid()).put("view", v.view());
      v.keys().forEach(view.putArray("keys")::add);
      view.put("position", v.position());
    }
    ArrayNode uids = root.putArray("operatorUids");
    operatorUids.stream().sorted().forEach(uids::add);
    root.set("flinkPlan", flinkPlan.orElse(null));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads a stored plan.
   *
   * @throws IllegalArgumentException if {@code json} is not a plan of this format
   */
  public static SqlPlan parse(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || root.path("format").asInt() != FORMAT) {
      throw new IllegalArgumentException("not a lakestream SQL plan of format " + FORMAT);
    }
    List<Statement> statements = new ArrayList<>();
    for (JsonNode s : root.path("statements")) {
      statements.add(
          new Statement(
              s.path("table").asText(), s.path("label").asText(), s.path("position").asText()));
    }
    List<DedupView> views = new ArrayList<>();
    for (JsonNode v : root.path("views")) {
      List<String> keys = new ArrayList<>();
      v.path("keys").forEach(k -> keys.add(k.asText()));
      views.add(
          new DedupView(
              v.path("uid").asText(), v.path("view").asText(), keys, v.path("position").asText()));
    }
    Set<String> uids = new LinkedHashSet<>();
    root.path("operatorUids").forEach(u -> uids.add(u.asText()));
    JsonNode flink = root.path("flinkPlan");
    return new SqlPlan(
        statements, views, uids, flink.isObject() ? Optional.of(flink) : Optional.empty());
  }

  /** Reads Flink's compiled plan JSON ({@code CompiledPlan#asJsonString}). */
  public static JsonNode readFlinkPlan(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }
}
