package io.lakestream.sql.streamingtable;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.sql.SqlScript;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.catalog.ObjectIdentifier;

/**
 * One {@code CREATE OR REFRESH STREAMING TABLE} statement, parsed:
 *
 * <pre>{@code
 * CREATE OR REFRESH STREAMING TABLE [catalog.][database.]name
 *   [PARTITIONED BY (column, ...)] [COMMENT '...'] [TBLPROPERTIES ('delta.key' = 'value', ...)]
 *   [SCHEDULE [REFRESH] EVERY n {MINUTE[S] | HOUR[S] | DAY[S] | WEEK[S]}
 *    | TRIGGER ON UPDATE [AT MOST EVERY INTERVAL n {SECOND[S] | MINUTE[S] | HOUR[S] | DAY[S]}]]
 * AS query
 * }</pre>
 *
 * <p>The clauses come in any order. In the query, Databricks' {@code STREAM(table)} reads {@code
 * table} (every lakestream read is a stream). The table's columns are the query's; a column list
 * after the name, {@code SCHEDULE CRON} and {@code CREATE STREAMING TABLE} without {@code OR
 * REFRESH} are refused with {@link SqlErrorClass#SQL_INVALID_STREAMING_TABLE}, naming what to
 * write. {@link StreamingTableRun} runs it inside a query.
 */
@Internal
public final class StreamingTableStatement {
  private static final String PART = "(?:`[^`]+`|[A-Za-z_$][\\w$]*)";
  private static final String NAME = PART + "(?:\\s*\\.\\s*" + PART + "){0,2}";
  private static final Pattern MENTION =
      Pattern.compile("(?is)\\s*CREATE\\s+(?:OR\\s+REFRESH\\s+)?STREAMING\\s+TABLE\\b.*");
  private static final Pattern HEAD =
      Pattern.compile(
          "(?is)\\s*CREATE\\s+OR\\s+REFRESH\\s+STREAMING\\s+TABLE\\s+(" + NAME + ")\\s*");
  private static final Pattern PARTITIONED =
      Pattern.compile("(?is)PARTITIONED\\s+BY\\s*\\(([^)]*)\\)\\s*");
  private static final Pattern COMMENT = Pattern.compile("(?is)COMMENT\\s+'((?:[^']|'')*)'\\s*");
  private static final String LITERAL = "'((?:[^']|'')*)'";
  private static final Pattern PROPERTIES =
      Pattern.compile("(?is)TBLPROPERTIES\\s*\\(((?:[^')]|'(?:[^']|'')*')*)\\)\\s*");
  private static final Pattern PROPERTY =
      Pattern.compile("(?s)\\s*" + LITERAL + "\\s*=\\s*" + LITERAL + "\\s*(?:,|$)");
  private static final Pattern SCHEDULE =
      Pattern.compile("(?is)SCHEDULE\\s+(?:REFRESH\\s+)?EVERY\\s+(\\d+)\\s+([A-Z]+)\\s*");
  private static final Pattern CRON = Pattern.compile("(?is)SCHEDULE\\s+(?:REFRESH\\s+)?CRON\\b.*");
  private static final Pattern ON_UPDATE =
      Pattern.compile(
          "(?is)TRIGGER\\s+ON\\s+UPDATE"
              + "(?:\\s+AT\\s+MOST\\s+EVERY\\s+INTERVAL\\s+'?(\\d+)'?\\s+([A-Z]+))?\\s*");
  private static final Pattern AS = Pattern.compile("(?is)AS\\s+(\\S.*)");
  private static final Pattern STREAM_READ =
      Pattern.compile("(?i)\\bSTREAM\\s*\\(\\s*(" + NAME + ")\\s*\\)");

  private final SqlScript.Statement statement;
  private final List<String> name;
  private final List<String> partitionKeys;
  private final String comment;
  private final Map<String, String> properties;
  private final RefreshSchedule schedule;
  private final String query;

  private StreamingTableStatement(
      SqlScript.Statement statement,
      List<String> name,
      List<String> partitionKeys,
      String comment,
      Map<String, String> properties,
      RefreshSchedule schedule,
      String query) {
    this.statement = statement;
    this.name = name;
    this.partitionKeys = partitionKeys;
    this.comment = comment;
    this.properties = properties;
    this.schedule = schedule;
    this.query = query;
  }

  /** Whether {@code statement} creates a streaming table. */
  public static boolean isIn(SqlScript.Statement statement) {
    return MENTION.matcher(statement.text()).matches();
  }

  /**
   * The streaming table {@code statement} declares.
   *
   * @throws LakestreamException ({@link SqlErrorClass#SQL_INVALID_STREAMING_TABLE}) when it does
   *     not parse or its schedule is under the 1-minute minimum
   */
  public static StreamingTableStatement parse(SqlScript.Statement statement) {
    String text = statement.text();
    Matcher head = HEAD.matcher(text);
    if (!head.lookingAt()) {
      throw invalid(
          "write it as CREATE OR REFRESH STREAMING TABLE <name> [SCHEDULE EVERY n HOURS | TRIGGER"
              + " ON UPDATE AT MOST EVERY INTERVAL n MINUTES] AS SELECT ...");
    }
    return new Clauses(statement, parts(head.group(1))).read(text, head.end());
  }

  /** The clauses after the name, read one after the other up to {@code AS}. */
  private static final class Clauses {
    private final SqlScript.Statement statement;
    private final List<String> name;
    private List<String> partitionKeys = List.of();
    private String comment;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private RefreshSchedule schedule;

    Clauses(SqlScript.Statement statement, List<String> name) {
      this.statement = statement;
      this.name = name;
    }

    StreamingTableStatement read(String text, int from) {
      int at = from;
      while (true) {
        Matcher as = AS.matcher(text).region(at, text.length());
        if (as.lookingAt()) {
          return new StreamingTableStatement(
              statement,
              name,
              partitionKeys,
              comment,
              java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties)),
              schedule,
              STREAM_READ.matcher(as.group(1)).replaceAll("$1"));
        }
        int next = clause(text, at);
        if (next < 0) {
          throw unexpected(text, at);
        }
        at = next;
      }
    }

    /** Reads the clause at {@code at}; returns where the next one starts, or -1 if none is. */
    private int clause(String text, int at) {
      Matcher m;
      if ((m = match(PARTITIONED, text, at)) != null) {
        partitionKeys =
            Arrays.stream(m.group(1).split(",")).map(String::strip).map(Clauses::unquote).toList();
      } else if ((m = match(COMMENT, text, at)) != null) {
        comment = m.group(1).replace("''", "'");
      } else if ((m = match(PROPERTIES, text, at)) != null) {
        properties(m.group(1));
      } else if ((m = match(SCHEDULE, text, at)) != null) {
        setSchedule(RefreshSchedule.Kind.EVERY, m.group(1), m.group(2));
      } else if ((m = match(ON_UPDATE, text, at)) != null) {
        setSchedule(RefreshSchedule.Kind.ON_UPDATE, m.group(1), m.group(2));
      } else {
        return -1;
      }
      return m.end();
    }

    private static Matcher match(Pattern pattern, String text, int at) {
      Matcher m = pattern.matcher(text).region(at, text.length());
      return m.lookingAt() ? m : null;
    }

    private void properties(String list) {
      Matcher property = PROPERTY.matcher(list);
      int at = 0;
      while (at < list.strip().length() && property.find(at) && property.start() == at) {
        properties.put(property.group(1).replace("''", "'"), property.group(2).replace("''", "'"));
        at = property.end();
      }
      if (!list.substring(at).isBlank()) {
        throw invalid("TBLPROPERTIES takes 'key' = 'value' pairs: " + list.strip());
      }
    }

    private void setSchedule(RefreshSchedule.Kind kind, String count, String unit) {
      if (schedule != null) {
        throw invalid("give one SCHEDULE or TRIGGER ON UPDATE clause, not two");
      }
      Duration interval =
          count == null
              ? RefreshSchedule.MINIMUM_INTERVAL
              : unitOf(unit, kind).getDuration().multipliedBy(Long.parseLong(count));
      try {
        schedule = new RefreshSchedule(kind, interval);
      } catch (LakestreamException e) {
        throw invalid(e.detail());
      }
    }

    private ChronoUnit unitOf(String unit, RefreshSchedule.Kind kind) {
      String singular = unit.toUpperCase(Locale.ROOT).replaceAll("S$", "");
      return switch (singular) {
        case "SECOND" -> ChronoUnit.SECONDS;
        case "MINUTE" -> ChronoUnit.MINUTES;
        case "HOUR" -> ChronoUnit.HOURS;
        case "DAY" -> ChronoUnit.DAYS;
        case "WEEK" -> ChronoUnit.WEEKS;
        default ->
            throw invalid(
                "'"
                    + unit
                    + "' is no unit of "
                    + (kind == RefreshSchedule.Kind.EVERY ? "SCHEDULE EVERY" : "INTERVAL")
                    + ": write SECONDS, MINUTES, HOURS, DAYS or WEEKS");
      };
    }

    private LakestreamException unexpected(String text, int at) {
      String rest = text.substring(at).strip();
      if (CRON.matcher(rest).matches()) {
        return invalid(
            "SCHEDULE CRON is not supported: write SCHEDULE EVERY n HOURS, or run lakestream sql"
                + " refresh from your scheduler at the times the expression names");
      }
      if (rest.startsWith("(")) {
        return invalid(
            "a streaming table takes its columns from its query: remove the column list after"
                + " the name");
      }
      String near = rest.length() > 40 ? rest.substring(0, 40) + "..." : rest;
      return invalid(
          "expected PARTITIONED BY (...), COMMENT '...', TBLPROPERTIES (...), SCHEDULE EVERY n"
              + " <unit>, TRIGGER ON UPDATE [AT MOST EVERY INTERVAL n <unit>] or AS <query>"
              + " near: "
              + near);
    }

    private static String unquote(String part) {
      return part.length() > 1 && part.startsWith("`") && part.endsWith("`")
          ? part.substring(1, part.length() - 1)
          : part;
    }
  }

  /** The parts of a dotted name, unquoted. */
  static List<String> parts(String dotted) {
    List<String> parts = new ArrayList<>();
    Matcher part = Pattern.compile(PART).matcher(dotted);
    while (part.find()) {
      parts.add(Clauses.unquote(part.group()));
    }
    return List.copyOf(parts);
  }

  /** The table's identifier, a name without catalog or database taking the current ones. */
  public ObjectIdentifier identifier(String currentCatalog, String currentDatabase) {
    return switch (name.size()) {
      case 1 -> ObjectIdentifier.of(currentCatalog, currentDatabase, name.get(0));
      case 2 -> ObjectIdentifier.of(currentCatalog, name.get(0), name.get(1));
      default -> ObjectIdentifier.of(name.get(0), name.get(1), name.get(2));
    };
  }

  /** The statement as written. */
  public SqlScript.Statement statement() {
    return statement;
  }

  /** The table's name as written, its parts unquoted. */
  public List<String> name() {
    return name;
  }

  /** {@code PARTITIONED BY}'s columns, or none. */
  public List<String> partitionKeys() {
    return partitionKeys;
  }

  /** {@code COMMENT}, if given. */
  public Optional<String> comment() {
    return Optional.ofNullable(comment);
  }

  /** {@code TBLPROPERTIES}, in order. */
  public Map<String, String> properties() {
    return properties;
  }

  /** The refresh schedule, if the statement has one. */
  public Optional<RefreshSchedule> schedule() {
    return Optional.ofNullable(schedule);
  }

  /** The query, {@code STREAM(t)} read as {@code t}. */
  public String query() {
    return query;
  }

  static LakestreamException invalid(String detail) {
    return new LakestreamException(
        SqlErrorClass.SQL_INVALID_STREAMING_TABLE,
        "CREATE OR REFRESH STREAMING TABLE cannot run: " + detail);
  }
}
