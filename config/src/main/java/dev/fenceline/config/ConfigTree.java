/*
 * Copyright 2026 the Fenceline authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A configuration that does not come from a YAML file, such as the {@code fenceline.*} properties
 * of a Spring {@code Environment}: the same tree of keys as {@code fenceline.yaml}, each value with
 * where it came from. {@link FencelineConfig#loader(ConfigTree)} reads and checks it with the same
 * code and the same messages as a file, citing each value's {@link ConfigLocation} and its key path
 * with the tree's {@linkplain #keyPrefix() prefix} ({@code fenceline.stores.main.url}).
 *
 * <pre>{@code
 * ConfigTree tree =
 *     ConfigTree.builder("the Spring environment", "fenceline")
 *         .value(List.of("issuer"), "main", new ConfigLocation("application.yaml", 3, 11))
 *         .value(List.of("stores", "main", "type"), "jdbc", new ConfigLocation("application.yaml", 6, 13))
 *         .build();
 * }</pre>
 *
 * <p>Values are taken as they are: {@code ${NAME}} is not replaced (the host resolves its own
 * placeholders before it hands the values over, and tells the builder which variables a value was
 * made from with {@link Builder#variable}, so that values from secret-named variables are masked as
 * in a file). Immutable.
 */
public final class ConfigTree {

  private static final Pattern INDEX = Pattern.compile("\\[([0-9]{1,9})]");

  private final String source;
  private final String keyPrefix;
  private final ConfigNode.Mapping root;
  private final Set<String> secrets;

  private ConfigTree(
      String source, String keyPrefix, ConfigNode.Mapping root, Set<String> secrets) {
    this.source = source;
    this.keyPrefix = keyPrefix;
    this.root = root;
    this.secrets = Set.copyOf(secrets);
  }

  /**
   * Starts a tree.
   *
   * @param source what holds the values, for messages about the whole tree (such as {@code the
   *     Spring environment})
   * @param keyPrefix what key paths in messages start with (such as {@code fenceline}); empty for
   *     none
   */
  public static Builder builder(String source, String keyPrefix) {
    return new Builder(source, keyPrefix);
  }

  /** What holds the values. */
  public String source() {
    return source;
  }

  /** What key paths in messages start with; empty for none. */
  public String keyPrefix() {
    return keyPrefix;
  }

  ConfigNode.Mapping root() {
    return root;
  }

  /** The values the host resolved from secret-named variables ({@link Builder#variable}). */
  Set<String> secrets() {
    return secrets;
  }

  @Override
  public String toString() {
    return "ConfigTree["
        + source
        + ", keys "
        + root.entries().keySet().stream().map(ConfigNode.Key::name).toList()
        + "]";
  }

  /** Collects the values of a {@link ConfigTree}. Not thread-safe. */
  public static final class Builder {
    private final String source;
    private final String keyPrefix;
    private final Branch root;
    private final Set<String> secrets = new LinkedHashSet<>();

    private Builder(String source, String keyPrefix) {
      this.source = requireNonNull(source, "source is null");
      this.keyPrefix = requireNonNull(keyPrefix, "keyPrefix is null");
      this.root = new Branch(false, ConfigLocation.of(this.source));
    }

    /**
     * Sets the value at {@code path}.
     *
     * @param path the keys from the top, such as {@code [stores, main, url]}; an element {@code
     *     [n]} is the n-th item of a list
     * @param value a {@link String}, {@link Boolean} or {@link Number}, or null (an empty value, as
     *     {@code key:} with nothing after it in YAML); an empty string is an empty value
     * @param location where the value is written
     * @return this builder
     * @throws ConfigFileException if {@code path} was given a value before, or is both a single
     *     value and a mapping (or list) of keys
     * @throws IllegalArgumentException if {@code path} is empty or has an empty key
     */
    public Builder value(List<String> path, Object value, ConfigLocation location) {
      requireNonNull(path, "path is null");
      requireNonNull(location, "location is null");
      if (path.isEmpty()) {
        throw new IllegalArgumentException("Cannot set a value at an empty path (name its keys)");
      }
      Branch branch = root;
      for (int i = 0; i < path.size() - 1; i++) {
        branch = branch.child(path, i, INDEX.matcher(path.get(i + 1)).matches(), location, this);
      }
      branch.leaf(path, path.size() - 1, scalar(value, location), this);
      return this;
    }

    /**
     * Tells that a value was made from the host's variable {@code variable} (a placeholder such as
     * Spring's {@code ${DB_PASSWORD}}), whose value is {@code variableValue}, giving {@code
     * resolved}. If the variable's name says it holds a secret, by the rule for {@code ${VAR}} in a
     * file ({@code PASSWORD}, {@code SECRET}, {@code TOKEN}, {@code CREDENTIAL}, {@code API_KEY},
     * ... anywhere in the name), both values are secrets of the tree: masked wherever the loaded
     * configuration shows text ({@link FencelineConfig#mask}). Other variables change nothing.
     *
     * @param variable the variable's name
     * @param variableValue its value, or null if the host used a default
     * @param resolved the value it went into, or null
     * @return this builder
     */
    public Builder variable(String variable, String variableValue, String resolved) {
      requireNonNull(variable, "variable is null");
      if (Secrets.isSecretVariable(variable)) {
        for (String value : new String[] {variableValue, resolved}) {
          if (value != null && !value.isEmpty()) {
            secrets.add(value);
          }
        }
      }
      return this;
    }

    /** The tree. */
    public ConfigTree build() {
      return new ConfigTree(
          source, keyPrefix, (ConfigNode.Mapping) root.node(ConfigLocation.of(source)), secrets);
    }

    private String keyPath(List<String> path, int last) {
      StringBuilder text = new StringBuilder(keyPrefix);
      for (int i = 0; i <= last; i++) {
        String element = path.get(i);
        if (!INDEX.matcher(element).matches() && text.length() > 0) {
          text.append('.');
        }
        text.append(element);
      }
      return text.toString();
    }

    private ConfigFileException conflict(
        List<String> path, int last, ConfigLocation location, Node earlier, String now) {
      String keyPath = keyPath(path, last);
      return new ConfigFileException(
          "Cannot configure "
              + keyPath
              + " at "
              + location
              + ": it is "
              + now
              + " here, and "
              + earlier.what()
              + " at "
              + earlier.location()
              + " (keep one of them)",
          location,
          keyPath,
          null);
    }

    private static ConfigNode.Scalar scalar(Object value, ConfigLocation location) {
      if (value == null || (value instanceof CharSequence text && text.length() == 0)) {
        return new ConfigNode.Scalar(location, "", ConfigNode.Scalar.Type.NULL);
      }
      if (value instanceof Boolean) {
        return new ConfigNode.Scalar(location, value.toString(), ConfigNode.Scalar.Type.BOOLEAN);
      }
      if (value instanceof Number) {
        return new ConfigNode.Scalar(location, value.toString(), ConfigNode.Scalar.Type.NUMBER);
      }
      return new ConfigNode.Scalar(location, value.toString(), ConfigNode.Scalar.Type.STRING);
    }
  }

  /** A node being built. */
  private sealed interface Node permits Branch, Leaf {
    ConfigLocation location();

    String what();

    ConfigNode node();
  }

  private record Leaf(ConfigNode.Scalar scalar) implements Node {
    @Override
    public ConfigLocation location() {
      return scalar.location();
    }

    @Override
    public String what() {
      return "a single value";
    }

    @Override
    public ConfigNode node() {
      return scalar;
    }
  }

  /** A mapping (keys in the order first given) or a list (items by index). */
  private static final class Branch implements Node {
    private final boolean list;
    private final ConfigLocation location;
    private final Map<String, Node> keys = new LinkedHashMap<>();
    private final Map<String, ConfigLocation> keyLocations = new LinkedHashMap<>();
    private final TreeMap<Integer, Node> items = new TreeMap<>();

    Branch(boolean list, ConfigLocation location) {
      this.list = list;
      this.location = location;
    }

    @Override
    public ConfigLocation location() {
      return firstLocation();
    }

    @Override
    public String what() {
      return list ? "a list" : "a mapping of keys";
    }

    /** The branch at element {@code i} of {@code path}, made if missing, placed at {@code at}. */
    Branch child(List<String> path, int i, boolean list, ConfigLocation at, Builder builder) {
      Node existing = get(path.get(i));
      if (existing == null) {
        Branch made = new Branch(list, at);
        put(path, i, made, at, builder);
        return made;
      }
      if (existing instanceof Branch branch && branch.list == list) {
        return branch;
      }
      throw builder.conflict(path, i, at, existing, list ? "a list" : "a mapping of keys");
    }

    void leaf(List<String> path, int i, ConfigNode.Scalar scalar, Builder builder) {
      Node existing = get(path.get(i));
      if (existing != null) {
        throw builder.conflict(
            path,
            i,
            scalar.location(),
            existing,
            existing instanceof Leaf ? "given a second value" : "a single value");
      }
      put(path, i, new Leaf(scalar), scalar.location(), builder);
    }

    private Node get(String element) {
      if (list) {
        java.util.regex.Matcher index = INDEX.matcher(element);
        return index.matches() ? items.get(Integer.valueOf(index.group(1))) : null;
      }
      return keys.get(element);
    }

    private void put(List<String> path, int i, Node node, ConfigLocation at, Builder builder) {
      String element = path.get(i);
      java.util.regex.Matcher index = INDEX.matcher(element);
      if (list != index.matches()) {
        Node self = this;
        throw builder.conflict(path, i - 1, at, self, list ? "a mapping of keys" : "a list");
      }
      if (list) {
        items.put(Integer.valueOf(index.group(1)), node);
      } else {
        if (element.isEmpty()) {
          throw new IllegalArgumentException(
              "Cannot set a value at " + path + ": it has an empty key (name every key)");
        }
        keys.put(element, node);
        keyLocations.put(element, at);
      }
    }

    @Override
    public ConfigNode node() {
      return node(firstLocation());
    }

    /** The node, placed at {@code where}. */
    ConfigNode node(ConfigLocation where) {
      if (list) {
        List<ConfigNode> built = new ArrayList<>();
        items.values().forEach(item -> built.add(item.node()));
        return new ConfigNode.Sequence(where, List.copyOf(built));
      }
      Map<ConfigNode.Key, ConfigNode> built = new LinkedHashMap<>();
      keys.forEach(
          (name, child) ->
              built.put(new ConfigNode.Key(name, keyLocations.get(name)), child.node()));
      return new ConfigNode.Mapping(where, built);
    }

    /** Where the branch starts: its first value (a tree's branches have no place of their own). */
    private ConfigLocation firstLocation() {
      if (!keys.isEmpty()) {
        return keys.values().iterator().next() instanceof Leaf leaf
            ? leaf.location()
            : ((Branch) keys.values().iterator().next()).firstLocation();
      }
      if (!items.isEmpty()) {
        Node first = items.firstEntry().getValue();
        return first instanceof Leaf leaf ? leaf.location() : ((Branch) first).firstLocation();
      }
      return location;
    }
  }
}
