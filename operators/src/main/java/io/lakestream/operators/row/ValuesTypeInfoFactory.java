package io.lakestream.operators.row;

import io.lakestream.api.annotation.Internal;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** Tells Flink's type extractor to use {@link ValuesTypeInfo} wherever {@link Values} appears. */
@Internal
public final class ValuesTypeInfoFactory extends TypeInfoFactory<Values> {
  @Override
  public TypeInformation<Values> createTypeInfo(
      Type t, Map<String, TypeInformation<?>> genericParameters) {
    return ValuesTypeInfo.INSTANCE;
  }
}
