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

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 19 item 7: short or common secrets ({@code x}, {@code admin}, {@code postgres}) are masked
 * where they are printed as values, and never as substrings of other text.
 */
class ShortSecretsTest {

  @TempDir Path directory;

  private String yaml(String extra) {
    return """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          pg:
            type: jdbc
            url: jdbc:postgresql://app:${PG_PASSWORD}@db.example.com/postgres?password=${PG_PASSWORD}
            user: postgres
            password: ${PG_PASSWORD}
          files:
            type: vfs
            uri: %s
        issuer: main
        destinations:
          examples:
            store: files
            pointer-store: pg
          payments-api:
            type: http
            base-uri: https://api.example.com/v1
            bearer-token-env: PAYMENTS_API_TOKEN
            max-attempts: 1
            request: {path: /payments}
        %s"""
        .formatted(directory.resolve("f.db"), directory.resolve("files").toUri(), extra);
  }

  private static Map<String, String> env(String secret) {
    return Map.of("PG_PASSWORD", secret, "PAYMENTS_API_TOKEN", secret);
  }

  /** The forms a secret value takes where it would be printed. */
  private static void assertNotShownAsAValue(String text, String secret) {
    assertThat(text)
        .doesNotContain(":" + secret + "@")
        .doesNotContain("password=" + secret)
        .doesNotContain("\"" + secret + "\"")
        .doesNotContain("Bearer " + secret);
  }

  @ParameterizedTest
  @ValueSource(strings = {"x", "admin", "postgres"})
  void otherTextIsNeverChanged(String secret) {
    try (FencelineConfig config = ConfigFiles.load(directory, yaml(""), env(secret))) {
      for (String text :
          new String[] {
            "Cannot load examples/fenceline.yaml: the file does not exist (check the path)",
            "FATAL: password authentication failed for user \"postgres\"",
            "the admin console at jdbc:postgresql://db.example.com/postgres refused x-api-key",
            "Cannot open " + directory + ": Connection refused (exit 0x1)"
          }) {
        assertThat(config.mask(text)).isEqualTo(text);
      }
      assertThat(config.toString())
          .contains("pg (jdbc)", "files (vfs)", "examples", "payments-api")
          .doesNotContain(Secrets.MASK);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"x", "admin", "postgres"})
  void theSecretIsMaskedWhereItIsPrinted(String secret) {
    try (FencelineConfig config = ConfigFiles.load(directory, yaml(""), env(secret))) {
      // URLs with credentials, password parameters and Authorization headers, as a driver or an
      // HTTP library would echo them.
      String echoed =
          config.mask(
              "Cannot connect to jdbc:postgresql://app:"
                  + secret
                  + "@db.example.com/postgres?password="
                  + secret
                  + " with Authorization: Bearer "
                  + secret);
      assertNotShownAsAValue(echoed, secret);
      assertThat(echoed)
          .isEqualTo(
              "Cannot connect to jdbc:postgresql://app:****@db.example.com/postgres?password=****"
                  + " with Authorization: Bearer ****");
    }
    // A value that came from the secret variable is shown as written, not as its value.
    ConfigFileException wrong =
        catchThrowableOfType(
            ConfigFileException.class,
            () ->
                ConfigFiles.load(directory, yaml("lease: {ttl: \"${PG_PASSWORD}\"}\n"), env(secret))
                    .close());
    assertThat(wrong).hasMessageContaining("\"${PG_PASSWORD}\" is not a duration");
    assertNotShownAsAValue(wrong.getMessage(), secret);
    // A secret key's own value is shown as ****.
    ConfigFileException literal =
        catchThrowableOfType(
            ConfigFileException.class,
            () ->
                ConfigFiles.load(
                        directory,
                        yaml("lease: {ttl: 30s}\n")
                            .replace("password: ${PG_PASSWORD}", "password: [" + secret + "]"),
                        env(secret))
                    .close());
    assertThat(literal).hasMessageContaining("stores.pg.password").hasMessageContaining("a list");
    assertNotShownAsAValue(literal.getMessage(), secret);
  }

  @ParameterizedTest
  @ValueSource(strings = {"Tr0ub4dor&3", "tok_live_5f3c9a81", "correcthorsebatterystaple"})
  void anUnambiguousSecretEchoedByALibraryIsMaskedAsAWholeToken(String secret) {
    try (FencelineConfig config = ConfigFiles.load(directory, yaml(""), env(secret))) {
      assertThat(config.mask("login failed: password '" + secret + "' refused"))
          .isEqualTo("login failed: password '****' refused");
      // Inside a longer word it is not the secret.
      assertThat(config.mask("id" + secret + "9")).isEqualTo("id" + secret + "9");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"!Secr3t9x", "Secr3t9x!", "#tok_live_5f3c9a81#"})
  void anUnambiguousSecretWhoseEdgeIsASymbolIsMaskedEvenAgainstAWord(String secret) {
    // The symbol is the boundary on its side: "pw!Secr3t9x" holds the secret, not a longer word.
    String before = Character.isLetterOrDigit(secret.charAt(0)) ? " " : "pw";
    String after = Character.isLetterOrDigit(secret.charAt(secret.length() - 1)) ? " " : "pw";
    try (FencelineConfig config = ConfigFiles.load(directory, yaml(""), env(secret))) {
      assertThat(config.mask("login " + before + secret + after + " refused"))
          .isEqualTo("login " + before + "****" + after + " refused");
    }
  }
}
