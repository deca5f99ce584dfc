package io.lakestream.connectors.lakebase.connect;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Lakebase (autoscaling) compute endpoint named as in the seeds' option {@code endpoint}: {@code
 * <project-id>.<branch-id>[.<endpoint-id>]}, from the resource name {@code
 * projects/<project-id>/branches/<branch-id>/endpoints/<endpoint-id>}. Without an endpoint id the
 * branch's single read-write endpoint is meant.
 *
 * <p>Ids are 1-63 characters, lower-case letters, digits and hyphens, starting with a letter or a
 * digit (Databricks' rule, with a digit allowed for generated ids). The form cannot be told apart
 * from a host name of two or three labels, so the sink takes it as an id only when a resolver is
 * configured (option {@code workspacehost} or one set in code).
 *
 * @param project the project id
 * @param branch the branch id
 * @param endpoint the endpoint id, or null for the branch's read-write endpoint
 */
@PublicEvolving
public record LakebaseEndpointId(String project, String branch, String endpoint)
    implements Serializable {
  private static final String ID = "[a-z0-9][a-z0-9-]{0,62}";
  private static final Pattern FORM =
      Pattern.compile("(" + ID + ")\\.(" + ID + ")(?:\\.(" + ID + "))?");

  /** The id {@code text} names, or empty if it is not of the form (a host:port, a URL, ...). */
  public static Optional<LakebaseEndpointId> parse(String text) {
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches() || text.trim().matches("[0-9.]+")) {
      return Optional.empty();
    }
    return Optional.of(new LakebaseEndpointId(m.group(1), m.group(2), m.group(3)));
  }

  /** The branch's resource name, {@code projects/<p>/branches/<b>}. */
  public String branchName() {
    return "projects/" + project + "/branches/" + branch;
  }

  /** The endpoint's resource name; only when {@link #endpoint()} is given. */
  public String endpointName() {
    return branchName() + "/endpoints/" + endpoint;
  }

  @Override
  public String toString() {
    return project + "." + branch + (endpoint == null ? "" : "." + endpoint);
  }
}
