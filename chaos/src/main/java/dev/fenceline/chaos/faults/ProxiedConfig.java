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
package dev.fenceline.chaos.faults;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A copy of a Fenceline configuration file in which every network endpoint of every store (and of
 * every {@code type: http} destination) goes through a new {@link FaultProxy}, for chaos runs whose
 * worker processes load the copy.
 *
 * <p>Endpoints per type: {@code jdbc} {@code url: jdbc:postgresql://host:port[,host:port...]/db}
 * (one proxy per host; a URL without hosts means localhost:5432), {@code zookeeper} {@code
 * connect-string: host:port[,...][/chroot]} (one proxy per server), {@code s3} {@code endpoint:}
 * and {@code http} destinations' {@code base-uri:} ({@code http://} URLs; an {@code https://} one
 * is left alone, since the server's certificate names its host, not the proxy's loopback address; a
 * destination's {@code lookup.path} is relative to {@code base-uri}, so it follows). A SQLite file,
 * a local or {@code sftp://} directory (its host key is checked against the host name) and an
 * {@code s3} store without {@code endpoint} (AWS) are not proxied; {@link #description()} says so
 * for each. Proxies are shared by endpoints with the same {@code host:port}.
 *
 * <p>How the copy is made: the file is parsed (YAML, with each value's position in the text) and
 * only the endpoint values are replaced, in the text, by a double-quoted YAML string holding the
 * endpoint resolved from its {@code ${VAR}} references and pointed at the proxy (a literal <code>${
 * </code> in it written <code>$${</code>). Every other byte is kept as written: comments, line
 * numbers (messages about the copy cite the same lines as about the original) and every other
 * {@code ${VAR}} reference, which the workers resolve from their environment as the original would
 * be, so passwords and tokens never land in the copy. (Building the configuration in memory with
 * {@code FencelineConfig.loader(ConfigTree)} does not serve here: the workers are other processes
 * that load a file, and a tree's values are not interpolated.) The copy is checked by nobody here:
 * load it with {@code FencelineConfig.load} as the workers do.
 */
public final class ProxiedConfig implements AutoCloseable {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final Pattern REFERENCE =
      Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}|\\$\\{");
  private static final Set<String> STORE_KEYS =
      Set.of("type", "url", "connect-string", "endpoint", "uri", "path-style");
  private static final Set<String> DESTINATION_KEYS = Set.of("type", "base-uri");
  private static final int POSTGRES_PORT = 5432;
  private static final int ZOOKEEPER_PORT = 2181;

  private final Path file;
  private final List<FaultProxy> proxies;
  private final Map<String, Path> sqliteFiles;
  private final String description;

  private ProxiedConfig(
      Path file, List<FaultProxy> proxies, Map<String, Path> sqliteFiles, String description) {
    this.file = file;
    this.proxies = List.copyOf(proxies);
    this.sqliteFiles = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sqliteFiles));
    this.description = description;
  }

  /**
   * As {@link #write(Path, Path, Function)} with the process environment.
   *
   * @throws IllegalArgumentException if an endpoint cannot be read
   * @throws UncheckedIOException if a file cannot be read or written
   */
  public static ProxiedConfig write(Path yaml, Path copy) {
    return write(yaml, copy, System::getenv);
  }

  /**
   * Writes {@code copy}: {@code yaml} with every network endpoint through a new {@link FaultProxy},
   * whose {@code ${VAR}} references are resolved with {@code environment}.
   *
   * @throws IllegalArgumentException if an endpoint cannot be read (naming the key and the fix)
   * @throws UncheckedIOException if a file cannot be read or written
   */
  public static ProxiedConfig write(Path yaml, Path copy, Function<String, String> environment) {
    requireNonNull(yaml, "yaml is null");
    requireNonNull(copy, "copy is null");
    requireNonNull(environment, "environment is null");
    String text;
    try {
      text = Files.readString(yaml, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read configuration file " + yaml, e);
    }
    Rewriter rewriter = new Rewriter(yaml, text, environment);
    try {
      String rewritten = rewriter.rewrite();
      Path parent = copy.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(copy, rewritten, StandardCharsets.UTF_8);
    } catch (IOException e) {
      rewriter.closeProxies();
      throw new UncheckedIOException("Cannot write the proxied configuration " + copy, e);
    } catch (RuntimeException e) {
      rewriter.closeProxies();
      throw e;
    }
    return new ProxiedConfig(
        copy,
        new ArrayList<>(rewriter.proxies.values()),
        rewriter.sqliteFiles,
        String.join("\n", rewriter.lines));
  }

  /** {@return the written copy} */
  public Path file() {
    return file;
  }

  /** {@return the proxies the copy points at}, one per distinct {@code host:port} */
  public List<FaultProxy> proxies() {
    return proxies;
  }

  /** {@return the SQLite database file of each {@code jdbc:sqlite:} store, by store name} */
  public Map<String, Path> sqliteFiles() {
    return sqliteFiles;
  }

  /** {@return one line per store and http destination: what was proxied, or why not} */
  public String description() {
    return description;
  }

  /** Closes every proxy. */
  @Override
  public void close() {
    proxies.forEach(FaultProxy::close);
  }

  @Override
  public String toString() {
    return "ProxiedConfig[" + file + ", " + proxies.size() + " proxies]";
  }

  /** A scalar value with where it is in the text: [start, end). */
  private record Value(String key, String text, int start, int end, int line) {}

  /** A host and port of an endpoint. */
  private record HostPort(String host, int port) {
    String text() {
      return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
  }

  private static final class Rewriter {
    private final Path yaml;
    private final String text;
    private final Function<String, String> environment;
    private final Map<String, Map<String, Value>> stores = new LinkedHashMap<>();
    private final Map<String, Map<String, Value>> destinations = new LinkedHashMap<>();
    private final Map<String, FaultProxy> proxies = new LinkedHashMap<>();
    private final Map<String, Path> sqliteFiles = new LinkedHashMap<>();
    private final List<String> lines = new ArrayList<>();
    private final Map<Value, String> replacements = new LinkedHashMap<>();

    Rewriter(Path yaml, String text, Function<String, String> environment) {
      this.yaml = yaml;
      this.text = text;
      this.environment = environment;
    }

    String rewrite() {
      parse();
      stores.forEach(this::store);
      destinations.forEach(this::destination);
      StringBuilder out = new StringBuilder(text);
      List<Map.Entry<Value, String>> edits = new ArrayList<>(replacements.entrySet());
      edits.sort(
          Comparator.comparingInt((Map.Entry<Value, String> e) -> e.getKey().start()).reversed());
      for (Map.Entry<Value, String> edit : edits) {
        Value value = edit.getKey();
        String original = text.substring(value.start(), value.end());
        if (original.isEmpty()
            || original.contains("\n")
            || original.startsWith("|")
            || original.startsWith(">")) {
          throw new IllegalArgumentException(
              "Cannot proxy "
                  + value.key()
                  + " in "
                  + yaml
                  + ":"
                  + value.line()
                  + ": it is not written on one line; write it as one plain or quoted value");
        }
        out.replace(edit.getKey().start(), edit.getKey().end(), quote(edit.getValue()));
      }
      return out.toString();
    }

    void closeProxies() {
      proxies.values().forEach(FaultProxy::close);
    }

    /** Collects the scalars at stores.NAME.KEY and destinations.NAME.KEY with their positions. */
    private void parse() {
      List<String> path = new ArrayList<>();
      try (JsonParser parser = YAML.createParser(text)) {
        JsonToken token;
        int depth = 0;
        while ((token = parser.nextToken()) != null) {
          switch (token) {
            case START_OBJECT, START_ARRAY -> {
              depth++;
              while (path.size() < depth) {
                path.add(null);
              }
            }
            case END_OBJECT, END_ARRAY -> {
              depth--;
              while (path.size() > depth) {
                path.remove(path.size() - 1);
              }
            }
            case PROPERTY_NAME -> path.set(depth - 1, parser.currentName());
            default -> {
              if (token.isScalarValue() && depth == 3) {
                collect(parser, path);
              }
            }
          }
        }
      } catch (JacksonException e) {
        throw new IllegalArgumentException(
            "Cannot read configuration file "
                + yaml
                + " as YAML: "
                + e.getOriginalMessage()
                + " (check it with fenceline doctor --config "
                + yaml
                + ")",
            e);
      }
    }

    private void collect(JsonParser parser, List<String> path) {
      Map<String, Map<String, Value>> section =
          "stores".equals(path.get(0))
              ? stores
              : "destinations".equals(path.get(0)) ? destinations : null;
      if (section == null) {
        return;
      }
      Set<String> keys = section == stores ? STORE_KEYS : DESTINATION_KEYS;
      String key = path.get(2);
      if (!keys.contains(key)) {
        return;
      }
      int start = (int) parser.currentTokenLocation().getCharOffset();
      int end = (int) parser.currentLocation().getCharOffset();
      int line = parser.currentTokenLocation().getLineNr();
      section
          .computeIfAbsent(path.get(1), name -> new LinkedHashMap<>())
          .put(
              key,
              new Value(String.join(".", path.subList(0, 3)), parser.getText(), start, end, line));
    }

    private void store(String name, Map<String, Value> keys) {
      String where = "store " + name;
      String type = resolved(keys.get("type"), "stores." + name + ".type");
      if (type == null) {
        lines.add(where + ": no type, not proxied");
        return;
      }
      where += " (" + type + ")";
      switch (type) {
        case "jdbc" -> jdbc(name, where, keys.get("url"));
        case "zookeeper" -> zookeeper(name, where, keys.get("connect-string"));
        case "s3" -> s3(name, where, keys);
        case "vfs" -> vfs(name, where, keys.get("uri"));
        default -> lines.add(where + ": endpoints of this type are not known here, not proxied");
      }
    }

    private void destination(String name, Map<String, Value> keys) {
      String type = resolved(keys.get("type"), "destinations." + name + ".type");
      if (!"http".equals(type)) {
        return; // staged and fenced destinations reach their stores, proxied above
      }
      String key = "destinations." + name + ".base-uri";
      Value value = keys.get("base-uri");
      String uri = resolved(value, key);
      String where = "destination " + name + " (http)";
      if (uri == null) {
        lines.add(where + ": no base-uri, not proxied");
        return;
      }
      http(where, "base-uri", key, value, uri);
    }

    private void jdbc(String name, String where, Value value) {
      String key = "stores." + name + ".url";
      String url = resolved(value, key);
      if (url == null) {
        lines.add(where + ": no url, not proxied");
        return;
      }
      Optional<Path> sqlite = SqliteLockFault.sqliteFileOf(url);
      if (sqlite.isPresent()) {
        sqliteFiles.put(name, sqlite.get());
        lines.add(
            where
                + ": SQLite file "
                + sqlite.get()
                + ", no network endpoint: not proxied (store-lock holds its lock instead)");
        return;
      }
      if (url.startsWith("jdbc:sqlite:")) {
        lines.add(where + ": an in-memory or unnamed SQLite database, no endpoint: not proxied");
        return;
      }
      String prefix = "jdbc:postgresql:";
      if (!url.startsWith(prefix)) {
        lines.add(where + ": a JDBC URL of neither SQLite nor PostgreSQL: not proxied");
        return;
      }
      String rest = url.substring(prefix.length());
      String authority;
      String tail;
      if (rest.startsWith("//")) {
        int end = indexOfAny(rest, 2, '/', '?');
        authority = end < 0 ? rest.substring(2) : rest.substring(2, end);
        tail = end < 0 ? "/" : rest.substring(end);
      } else {
        authority = "";
        tail = rest.startsWith("/") ? rest : "/" + rest;
      }
      List<HostPort> hosts = new ArrayList<>();
      if (authority.isEmpty()) {
        hosts.add(new HostPort("localhost", POSTGRES_PORT));
      } else {
        for (String host : authority.split(",", -1)) {
          hosts.add(hostPort(host, POSTGRES_PORT, key, "jdbc:postgresql://db1:5432,db2:5432/app"));
        }
      }
      List<FaultProxy> through = proxiesFor(hosts, name);
      replacements.put(
          value,
          prefix
              + "//"
              + through.stream().map(FaultProxy::address).collect(Collectors.joining(","))
              + tail);
      lines.add(where + ": url " + describe(hosts, through));
    }

    private void zookeeper(String name, String where, Value value) {
      String key = "stores." + name + ".connect-string";
      String connect = resolved(value, key);
      if (connect == null) {
        lines.add(where + ": no connect-string, not proxied");
        return;
      }
      int slash = connect.indexOf('/');
      String servers = slash < 0 ? connect : connect.substring(0, slash);
      String chroot = slash < 0 ? "" : connect.substring(slash);
      List<HostPort> hosts = new ArrayList<>();
      for (String server : servers.split(",", -1)) {
        hosts.add(hostPort(server, ZOOKEEPER_PORT, key, "zk1:2181,zk2:2181,zk3:2181"));
      }
      List<FaultProxy> through = proxiesFor(hosts, name);
      replacements.put(
          value,
          through.stream().map(FaultProxy::address).collect(Collectors.joining(",")) + chroot);
      lines.add(where + ": connect-string " + describe(hosts, through));
    }

    private void s3(String name, String where, Map<String, Value> keys) {
      String key = "stores." + name + ".endpoint";
      Value value = keys.get("endpoint");
      String endpoint = resolved(value, key);
      if (endpoint == null) {
        lines.add(where + ": no endpoint (AWS itself), not proxied");
        return;
      }
      String pathStyle = resolved(keys.get("path-style"), "stores." + name + ".path-style");
      if (http(where, "endpoint", key, value, endpoint) && !"true".equals(pathStyle)) {
        lines.add(
            where
                + ": path-style is not true, so bucket host names (bucket.127.0.0.1) cannot reach"
                + " the proxy; set path-style: true for chaos runs");
      }
    }

    private void vfs(String name, String where, Value value) {
      String uri = resolved(value, "stores." + name + ".uri");
      if (uri != null && uri.regionMatches(true, 0, "sftp:", 0, 5)) {
        lines.add(
            where
                + ": an SFTP server, not proxied (its host key is checked against the host name)");
      } else {
        lines.add(where + ": a local directory, no network endpoint: not proxied");
      }
    }

    /** Proxies an http URL; an https one is described and left alone. True if proxied. */
    private boolean http(String where, String name, String key, Value value, String url) {
      URI uri;
      try {
        uri = new URI(url);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException(
            "Cannot proxy "
                + key
                + " in "
                + yaml
                + ": \""
                + url
                + "\" is not a URL ("
                + e.getReason()
                + "); write it as http://host:port/path",
            e);
      }
      String scheme = String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT);
      if (scheme.equals("https")) {
        lines.add(
            where
                + ": "
                + name
                + " is https, not proxied (the certificate names "
                + uri.getHost()
                + ", not the proxy's 127.0.0.1); use an http endpoint for proxy faults");
        return false;
      }
      if (!scheme.equals("http") || uri.getHost() == null) {
        throw new IllegalArgumentException(
            "Cannot proxy "
                + key
                + " in "
                + yaml
                + ": \""
                + url
                + "\" is not an http URL with a host; write it as http://host:port/path");
      }
      String host = uri.getHost();
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      HostPort target = new HostPort(host, uri.getPort() < 0 ? 80 : uri.getPort());
      String owner = where.substring(where.indexOf(' ') + 1, where.indexOf(" ("));
      FaultProxy proxy = proxiesFor(List.of(target), owner).get(0);
      StringBuilder rebuilt = new StringBuilder(uri.getScheme()).append("://");
      if (uri.getRawUserInfo() != null) {
        rebuilt.append(uri.getRawUserInfo()).append('@');
      }
      rebuilt.append(proxy.address());
      rebuilt.append(uri.getRawPath() == null ? "" : uri.getRawPath());
      if (uri.getRawQuery() != null) {
        rebuilt.append('?').append(uri.getRawQuery());
      }
      if (uri.getRawFragment() != null) {
        rebuilt.append('#').append(uri.getRawFragment());
      }
      replacements.put(value, rebuilt.toString());
      lines.add(where + ": " + name + " " + describe(List.of(target), List.of(proxy)));
      return true;
    }

    private List<FaultProxy> proxiesFor(List<HostPort> hosts, String owner) {
      List<FaultProxy> through = new ArrayList<>();
      for (HostPort host : hosts) {
        String target = host.text().toLowerCase(Locale.ROOT);
        through.add(
            proxies.computeIfAbsent(
                target,
                t ->
                    FaultProxy.start(
                        "proxy-" + owner + "-" + host.port(), host.host(), host.port())));
      }
      return through;
    }

    private static String describe(List<HostPort> hosts, List<FaultProxy> through) {
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < hosts.size(); i++) {
        parts.add(hosts.get(i).text() + " via " + through.get(i).address());
      }
      return String.join(", ", parts);
    }

    private HostPort hostPort(String text, int defaultPort, String key, String example) {
      String entry = text.trim();
      String host;
      String port = null;
      if (entry.startsWith("[")) {
        int close = entry.indexOf(']');
        if (close < 0) {
          throw badHost(key, text, example);
        }
        host = entry.substring(1, close);
        String after = entry.substring(close + 1);
        if (after.startsWith(":")) {
          port = after.substring(1);
        } else if (!after.isEmpty()) {
          throw badHost(key, text, example);
        }
      } else {
        int colon = entry.lastIndexOf(':');
        host = colon < 0 ? entry : entry.substring(0, colon);
        port = colon < 0 ? null : entry.substring(colon + 1);
      }
      if (host.isEmpty()) {
        throw badHost(key, text, example);
      }
      if (port == null) {
        return new HostPort(host, defaultPort);
      }
      try {
        int number = Integer.parseInt(port);
        if (number < 1 || number > 65535) {
          throw badHost(key, text, example);
        }
        return new HostPort(host, number);
      } catch (NumberFormatException e) {
        throw badHost(key, text, example);
      }
    }

    private IllegalArgumentException badHost(String key, String text, String example) {
      return new IllegalArgumentException(
          "Cannot proxy "
              + key
              + " in "
              + yaml
              + ": \""
              + text
              + "\" is not host or host:port with a port from 1 to 65535 (e.g. "
              + example
              + ")");
    }

    /** The value with its ${VAR} references resolved; null if absent. */
    private String resolved(Value value, String key) {
      if (value == null) {
        return null;
      }
      if (!value.text().contains("${")) {
        return value.text();
      }
      Matcher matcher = REFERENCE.matcher(value.text());
      StringBuilder out = new StringBuilder();
      while (matcher.find()) {
        String replacement;
        if (matcher.group().equals("$${")) {
          replacement = "${";
        } else if (matcher.group(1) == null) {
          throw new IllegalArgumentException(
              "Cannot resolve "
                  + key
                  + " in "
                  + yaml
                  + ":"
                  + value.line()
                  + ": the reference after \"${\" is not closed or not a variable name; write"
                  + " ${NAME} or ${NAME:-default}");
        } else {
          String variable = environment.apply(matcher.group(1));
          if (matcher.group(2) != null) {
            replacement = variable == null || variable.isEmpty() ? matcher.group(3) : variable;
          } else if (variable == null) {
            throw new IllegalArgumentException(
                "Cannot resolve "
                    + key
                    + " in "
                    + yaml
                    + ":"
                    + value.line()
                    + ": environment variable "
                    + matcher.group(1)
                    + " is not set; set it, or give a default with ${"
                    + matcher.group(1)
                    + ":-default}");
          } else {
            replacement = variable;
          }
        }
        matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
      }
      matcher.appendTail(out);
      return out.toString();
    }

    /** A double-quoted YAML scalar whose interpolated value is {@code value}. */
    private String quote(String value) {
      StringBuilder out = new StringBuilder("\"");
      String escaped = value.replace("${", "$${");
      for (char c : escaped.toCharArray()) {
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c < 0x20) {
          out.append(String.format("\\x%02x", (int) c));
        } else {
          out.append(c);
        }
      }
      return out.append('"').toString();
    }

    private static int indexOfAny(String text, int from, char first, char second) {
      int a = text.indexOf(first, from);
      int b = text.indexOf(second, from);
      return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }
  }
}
