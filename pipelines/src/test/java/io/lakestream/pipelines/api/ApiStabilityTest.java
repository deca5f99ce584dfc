package io.lakestream.pipelines.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public top-level type in the main sources of the shipped modules (api, state, operators,
 * runtime, every {@code connectors/*} module, sql, pipelines) states its stability with one of the
 * markers of {@code io.lakestream.api.annotation}: {@code @PublicEvolving} (users build on it),
 * {@code @Experimental} (new user API that may still change) or {@code @Internal} (public only so
 * other lakestream modules can use it). And every package of every module's main sources has a
 * {@code package-info.java} with a javadoc. The checks read the sources (comments and string
 * literals do not count), so a new public type or package fails the build until it says what it is.
 */
class ApiStabilityTest {
  /** The shipped modules besides {@code connectors/*}, which are found in the checkout. */
  static final List<String> SHIPPED =
      List.of("api", "state", "operators", "runtime", "sql", "pipelines");

  private static final Pattern MARKER =
      Pattern.compile(
          "@(?:io\\.lakestream\\.api\\.annotation\\.)?(PublicEvolving|Experimental|Internal)\\b");

  /** A top-level declaration: google-java-format puts them at column 0. */
  private static final Pattern DECLARATION =
      Pattern.compile(
          "^((?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp)\\s+)*)"
              + "(class|interface|enum|record|@interface)\\s+(\\w+)",
          Pattern.MULTILINE);

  private static final String WHAT_TO_DO =
      "public top-level types without a stability marker. Annotate each with one of"
          + " io.lakestream.api.annotation: @PublicEvolving (users build on it), @Experimental (new"
          + " user API that may still change) or @Internal (public only for other lakestream"
          + " modules), or make it package-private";

  @Test
  void everyPublicTopLevelTypeOfTheShippedModulesCarriesAStabilityMarker() throws IOException {
    List<Path> modules = shippedModules();
    assertThat(modules).as("shipped modules found").hasSizeGreaterThanOrEqualTo(11);
    List<String> publicTypes = new ArrayList<>();
    List<String> unmarked = new ArrayList<>();
    for (Path module : modules) {
      for (Path source : javaSources(module.resolve("src/main/java"))) {
        String where = root().relativize(source).toString();
        for (TopLevelType type : topLevelTypes(Files.readString(source))) {
          if (type.isPublic()) {
            publicTypes.add(where);
            if (!type.marked()) {
              unmarked.add(where + ": " + type.name());
            }
          }
        }
      }
    }
    assertThat(publicTypes).as("public top-level types scanned").hasSizeGreaterThan(250);
    assertThat(unmarked).as(WHAT_TO_DO).isEmpty();
  }

  @Test
  void everyMainPackageHasAPackageInfoWithAJavadoc() throws IOException {
    List<Path> roots = mainSourceRoots();
    assertThat(roots).as("src/main/java directories found").hasSizeGreaterThanOrEqualTo(15);
    Set<String> packages = new TreeSet<>();
    List<String> missing = new ArrayList<>();
    for (Path sourceRoot : roots) {
      for (Path source : javaSources(sourceRoot)) {
        Path dir = source.getParent();
        if (packages.add(root().relativize(dir).toString())) {
          Path info = dir.resolve("package-info.java");
          if (!Files.exists(info) || !hasJavadoc(Files.readString(info))) {
            missing.add(root().relativize(dir).toString());
          }
        }
      }
    }
    assertThat(packages).as("main packages scanned").hasSizeGreaterThan(80);
    assertThat(missing)
        .as(
            "packages without a package-info.java that starts with a javadoc: say what the package"
                + " holds, what it guarantees or how it fails, and which types to start from")
        .isEmpty();
  }

  @Test
  void theScanTellsMarkedFromUnmarkedTypes() {
    String marked =
        "package p;\n\nimport io.lakestream.api.annotation.Internal;\n\n"
            + "/** Uses {@link io.lakestream.api.annotation.PublicEvolving} in a comment. */\n"
            + "@Internal\n@FunctionalInterface\npublic interface A {}\n";
    String unmarked =
        "package p;\n\n/** Not marked, though the comment says @PublicEvolving. */\n"
            + "@SuppressWarnings(\"@Internal\") // @Experimental\n"
            + "public final class B {\n  @Internal\n  public static class Nested {}\n}\n"
            + "final class Helper {}\n";
    String qualified =
        "package p;\n\n@Command(name = \"x;y\", sub = {C.class})\n"
            + "@io.lakestream.api.annotation.Experimental\npublic record C(int a) {}\n";

    assertThat(topLevelTypes(marked)).containsExactly(new TopLevelType("A", true, true));
    assertThat(topLevelTypes(unmarked))
        .containsExactly(
            new TopLevelType("B", true, false), new TopLevelType("Helper", false, false));
    assertThat(topLevelTypes(qualified)).containsExactly(new TopLevelType("C", true, true));
    assertThat(hasJavadoc("/** Holds things. */\npackage p;\n")).isTrue();
    assertThat(hasJavadoc("// Holds things.\npackage p;\n")).isFalse();
  }

  /** One top-level type of a source file: its name, whether it is public and marked. */
  record TopLevelType(String name, boolean isPublic, boolean marked) {}

  /**
   * The top-level types of a source file. A type's annotations are what stands between the previous
   * statement ({@code ;}) or type ({@code }} at column 0) and its declaration, once comments and
   * literals are blanked out.
   */
  static List<TopLevelType> topLevelTypes(String source) {
    String code = blankCommentsAndLiterals(source);
    List<TopLevelType> types = new ArrayList<>();
    Matcher m = DECLARATION.matcher(code);
    while (m.find()) {
      String before = code.substring(0, m.start());
      int from = Math.max(before.lastIndexOf(';'), before.lastIndexOf("\n}"));
      String annotations = before.substring(from + 1);
      boolean isPublic = (" " + m.group(1)).contains(" public ");
      types.add(new TopLevelType(m.group(3), isPublic, MARKER.matcher(annotations).find()));
    }
    return types;
  }

  /** Whether a package-info.java has a javadoc before its package declaration. */
  static boolean hasJavadoc(String packageInfo) {
    int doc = packageInfo.indexOf("/**");
    int pkg = blankCommentsAndLiterals(packageInfo).indexOf("package ");
    return doc >= 0 && pkg > doc;
  }

  /**
   * The source with comments, string and character literals (text blocks too) replaced by spaces;
   * line breaks are kept, so columns and lines stay where they were.
   */
  static String blankCommentsAndLiterals(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    while (i < source.length()) {
      int end = literalOrCommentEnd(source, i);
      if (end == i) {
        out.append(source.charAt(i++));
        continue;
      }
      for (; i < end; i++) {
        out.append(source.charAt(i) == '\n' ? '\n' : ' ');
      }
    }
    return out.toString();
  }

  /** Where the comment or literal starting at {@code i} ends, or {@code i} if none starts there. */
  private static int literalOrCommentEnd(String s, int i) {
    if (s.startsWith("//", i)) {
      int eol = s.indexOf('\n', i);
      return eol < 0 ? s.length() : eol;
    }
    if (s.startsWith("/*", i)) {
      int close = s.indexOf("*/", i + 2);
      return close < 0 ? s.length() : close + 2;
    }
    if (s.startsWith("\"\"\"", i)) {
      int close = s.indexOf("\"\"\"", i + 3);
      while (close > 0 && s.charAt(close - 1) == '\\') {
        close = s.indexOf("\"\"\"", close + 1);
      }
      return close < 0 ? s.length() : close + 3;
    }
    char c = s.charAt(i);
    if (c == '"' || c == '\'') {
      int j = i + 1;
      while (j < s.length() && s.charAt(j) != c && s.charAt(j) != '\n') {
        j += s.charAt(j) == '\\' ? 2 : 1;
      }
      return Math.min(j + 1, s.length());
    }
    return i;
  }

  /** The shipped modules: {@link #SHIPPED} and every module under {@code connectors/}. */
  static List<Path> shippedModules() throws IOException {
    List<Path> modules = new ArrayList<>();
    for (String name : SHIPPED) {
      modules.add(root().resolve(name));
    }
    try (Stream<Path> dirs = Files.list(root().resolve("connectors"))) {
      dirs.filter(d -> Files.exists(d.resolve("pom.xml")))
          .filter(d -> Files.isDirectory(d.resolve("src/main/java")))
          .sorted()
          .forEach(modules::add);
    }
    return modules;
  }

  /** Every {@code src/main/java} directory of the checkout (every module, built or not). */
  static List<Path> mainSourceRoots() throws IOException {
    List<Path> roots = new ArrayList<>();
    Files.walkFileTree(
        root(),
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            String name = dir.getFileName().toString();
            if (name.equals("target") || name.startsWith(".") && !dir.equals(root())) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            if (dir.endsWith(Path.of("src", "main", "java"))) {
              roots.add(dir);
              return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return roots;
  }

  /** The {@code .java} files under a source root, package-info and module-info left out. */
  static List<Path> javaSources(Path sourceRoot) {
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      return files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("package-info.java"))
          .filter(p -> !p.getFileName().toString().equals("module-info.java"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The checkout root (tests run in the module's directory). */
  static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("connectors")) && Files.exists(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no checkout root above " + Path.of("").toAbsolutePath());
  }
}
