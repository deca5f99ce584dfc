package io.lakestream.connectors.autoloader.format;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.Objects;

/**
 * How {@code cloudFiles.format=xml} turns elements into records, named as Databricks' XML options:
 * the element of one row ({@code rowTag}), the field-name prefix of attributes ({@code
 * attributePrefix}, {@code _}), the field of an element's text beside attributes or children
 * ({@code valueTag}, {@code _VALUE}), whether attributes are left out ({@code excludeAttribute}),
 * whether namespace prefixes are dropped from names ({@code ignoreNamespace}), whether text is
 * trimmed ({@code ignoreSurroundingSpaces}), and the fraction of records schema inference looks at
 * ({@code samplingRatio}).
 *
 * @param samplingRatio in (0, 1]; inference uses the first record of every file and then one in
 *     every {@code 1 / samplingRatio}
 */
@Internal
public record XmlOptions(
    String rowTag,
    String attributePrefix,
    String valueTag,
    boolean excludeAttribute,
    boolean ignoreNamespace,
    boolean ignoreSurroundingSpaces,
    double samplingRatio)
    implements Serializable {

  /**
   * @throws IllegalArgumentException if the row tag is blank or not an XML name, or the ratio is
   *     not in (0, 1]
   */
  public XmlOptions {
    Objects.requireNonNull(rowTag, "rowTag");
    Objects.requireNonNull(attributePrefix, "attributePrefix");
    Objects.requireNonNull(valueTag, "valueTag");
    if (!rowTag.matches("[^\\s<>/=\"'&]+")) {
      throw new IllegalArgumentException(
          "rowTag '" + rowTag + "' is not an element name (e.g. rowTag=book for <book> elements)");
    }
    if (!(samplingRatio > 0 && samplingRatio <= 1)) {
      throw new IllegalArgumentException(
          "samplingRatio " + samplingRatio + " must be more than 0 and at most 1");
    }
  }

  /** Databricks' defaults with {@code rowTag}. */
  public static XmlOptions of(String rowTag) {
    return new XmlOptions(rowTag, "_", "_VALUE", false, false, true, 1.0);
  }

  /** Whether inference looks at the {@code number}-th record (1-based) of a file. */
  boolean sampled(long number) {
    return Math.ceil(number * samplingRatio) > Math.ceil((number - 1) * samplingRatio);
  }
}
