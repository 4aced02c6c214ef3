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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile configuration files (src/test/resources/hostile): each is refused by {@link
 * FencelineConfig#load} at the line and column of the real mistake, with the word for it. Nothing
 * is opened: every check here is static. The mistakes whose hints name adapters this module's test
 * class path does not hold (s3 sizes, the types that issue leases) are in the cli module's
 * EveryAdapterConfigTest, where every built-in adapter is.
 */
class HostileConfigTest {

  private static final Path HOSTILE = Path.of("src/test/resources/hostile");

  static Stream<Arguments> files() {
    return Stream.of(
        // YAML syntax
        Arguments.of("tab-indentation.yaml", "6:1", "a tab indents this line"),
        Arguments.of("tab-after-spaces.yaml", "4:3", "YAML allows only spaces for indentation"),
        Arguments.of("tab-in-list-item.yaml", "13:1", "a tab indents this line"),
        Arguments.of("tab-inside-block-scalar-is-content.yaml", "9:8", "quoted value that starts"),
        Arguments.of("deep-flow-nesting.yaml", "12:38", "nest deeper than 32 levels"),
        Arguments.of("deep-flow-mappings.yaml", "9:128", "nest deeper than 32 levels"),
        Arguments.of("deep-block-nesting.yaml", "33:65", "nest deeper than 32 levels"),
        Arguments.of("duplicate-top-level-key.yaml", "10:1", "given twice, first at line 8"),
        Arguments.of("duplicate-nested-key.yaml", "6:5", "given twice, first at line 4"),
        Arguments.of("duplicate-store-name.yaml", "9:1", "given twice, first at line 1"),
        Arguments.of("bad-indentation.yaml", "4:4", "bad indentation"),
        Arguments.of("bad-indentation-dedent.yaml", "5:19", "indented deeper"),
        Arguments.of("unclosed-double-quote.yaml", "4:10", "quoted value that starts here is not"),
        Arguments.of("unclosed-single-quote.yaml", "10:11", "quoted value that starts here is not"),
        Arguments.of("unclosed-flow-mapping.yaml", "2:9", "mapping opened with \"{\" here is not"),
        Arguments.of("unclosed-flow-sequence.yaml", "12:21", "list opened with \"[\" here is not"),
        Arguments.of("colon-in-plain-value.yaml", "10:17", "quote the value"),
        Arguments.of("alias.yaml", "5:9", "aliases (*name)"),
        Arguments.of("alias-scalar.yaml", "10:11", "aliases (*name)"),
        Arguments.of("billion-laughs.yaml", "10:8", "aliases (*name)"),
        Arguments.of("merge-key.yaml", "5:9", "merge keys are not supported"),
        Arguments.of("binary-tag.yaml", "5:19", "YAML tags such as \"tag:yaml.org,2002:binary\""),
        Arguments.of("custom-tag.yaml", "4:10", "YAML tags such as \"!env\" are not supported"),
        Arguments.of("str-tag-is-fine.yaml", "5:19", "\"8 seconds\" is not a duration"),
        Arguments.of("second-document.yaml", "10:1", "a second YAML document starts here"),
        Arguments.of("empty.yaml", "1:1", "the file is empty"),
        Arguments.of("only-comments.yaml", "1:1", "it holds only comments"),
        Arguments.of("top-level-list.yaml", "1:1", "holds a list, not a mapping"),
        Arguments.of("top-level-scalar.yaml", "1:1", "holds a string, not a mapping"),
        Arguments.of("control-character.yaml", "10:17", "control character U+0007"),
        Arguments.of("latin1-byte.yaml", "10:14", "not UTF-8: byte 0xE9"),
        Arguments.of("utf16-bom.yaml", "1:1", "UTF-16 byte order mark"),
        Arguments.of("bom-then-typo.yaml", "1:1", "unknown key \"storse\""),
        // keys that do not apply to the store's type
        Arguments.of("sqlite-password.yaml", "6:5", "password does not apply to a jdbc:sqlite"),
        Arguments.of("sqlite-connect-timeout.yaml", "6:5", "keys for jdbc:sqlite: lock-timeout"),
        Arguments.of("sqlite-pool-size.yaml", "5:5", "pools are for PostgreSQL only"),
        Arguments.of("vfs-file-credentials.yaml", "8:5", "does not apply to a vfs store on a file"),
        Arguments.of("vfs-file-timeout.yaml", "8:5", "keys for file://: allow-case-folding"),
        Arguments.of("s3-key-on-vfs.yaml", "8:5", "unknown key \"bucket\""),
        // references to stores that cannot play the role
        Arguments.of("issuer-vfs-no-destinations.yaml", "8:9", "(vfs) offers no lease issuer"),
        Arguments.of("staged-on-jdbc-store.yaml", "11:12", "(jdbc) offers no blob store"),
        Arguments.of("pointer-store-vfs.yaml", "12:20", "(vfs) offers no pointer store"),
        Arguments.of("keep-versions-above-pointer-versions.yaml", "14:5", "keep-versions 5 is"),
        // http destinations: every check of the builder, at load
        Arguments.of("http-base-uri-credentials.yaml", "14:15", "carries credentials"),
        Arguments.of("http-base-uri-query.yaml", "12:5", "no query or fragment"),
        Arguments.of("http-intent-store-vfs.yaml", "15:5", "(vfs) offers no intent store"),
        Arguments.of("http-reserved-key-header.yaml", "15:5", "idempotency key header"),
        Arguments.of("http-lookup-placeholder.yaml", "15:5", "unknown placeholder {kye}"),
        Arguments.of("http-receipt-pointer.yaml", "15:5", "must start with '/'"),
        Arguments.of("http-key-retention-short.yaml", "16:20", "key-retention 5s is not longer"),
        Arguments.of("http-request-path-relative.yaml", "14:21", "starting with /"),
        Arguments.of("http-request-placeholder.yaml", "14:21", "unknown placeholder {resouce}"),
        Arguments.of("http-bearer-variable-name.yaml", "15:5", "is not a variable name"));
  }

  @ParameterizedTest(name = "{0} at {1}: {2}")
  @MethodSource("files")
  void isRefusedAtTheMistake(String name, String lineColumn, String phrase) {
    Path file = HOSTILE.resolve(name);
    ConfigFileException error =
        catchThrowableOfType(
            ConfigFileException.class,
            () -> FencelineConfig.load(file, variable -> "not-used").close());

    assertThat(error).as(name + " loads").isNotNull();
    assertThat(error.location().line() + ":" + error.location().column())
        .as(error.getMessage())
        .isEqualTo(lineColumn);
    assertThat(error.getMessage())
        .contains(file + ":" + lineColumn)
        .contains(phrase)
        .doesNotContain("hunter2");
  }

  @Test
  void everyHostileFileIsInTheTable() throws IOException {
    try (Stream<Path> listed = Files.list(HOSTILE)) {
      assertThat(listed.map(path -> path.getFileName().toString()).sorted())
          .containsExactlyElementsOf(
              files().map(arguments -> (String) arguments.get()[0]).sorted().toList());
    }
  }

  @Test
  void aFileOverTheSizeLimitIsRefusedAtTheLineTheLimitFallsOn(@TempDir Path directory)
      throws IOException {
    String line = "# " + "x".repeat(1021) + "\n"; // 1 KiB a line
    Path file = directory.resolve("fenceline.yaml");
    Files.writeString(file, "stores: {}\n" + line.repeat(1100));

    ConfigFileException error =
        catchThrowableOfType(ConfigFileException.class, () -> FencelineConfig.load(file));

    assertThat(error)
        .hasMessageContaining("more than the limit of 1048576 bytes (1 MiB)")
        .hasMessageContaining(file + ":1025:");
  }

  @Test
  void aBearerTokenThatCannotBeSentIsRefusedAtLoad(@TempDir Path directory) {
    String yaml =
        ConfigFiles.sqliteAndDirectory(directory)
            + """
            destinations:
              payments:
                type: http
                base-uri: https://api.example.com/v1
                bearer-token-env: PAYMENTS_API_TOKEN
                max-attempts: 1
                request: {path: /payments}
            """;

    ConfigFileException error =
        catchThrowableOfType(
            ConfigFileException.class,
            () ->
                ConfigFiles.load(directory, yaml, java.util.Map.of("PAYMENTS_API_TOKEN", "tok_9\n"))
                    .close());

    assertThat(error).isNotNull();
    assertThat(error.getMessage())
        .contains("destinations.payments.bearer-token-env at ")
        .contains(":13:23: environment variable PAYMENTS_API_TOKEN holds whitespace")
        .doesNotContain("tok_9");
  }

  @Test
  void aByteOrderMarkDoesNotShiftColumns(@TempDir Path directory) throws IOException {
    Path file = directory.resolve("fenceline.yaml");
    Files.write(
        file,
        ("\uFEFF" + ConfigFiles.sqliteAndDirectory(directory))
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    try (FencelineConfig config = FencelineConfig.load(file)) {
      assertThat(config.storeNames()).containsExactly("main", "reports-dir");
    }
  }
}
