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
package dev.fenceline.tck;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The warnings (and worse) a {@code java.util.logging} logger publishes while this is open, for a
 * test that checks what a class warns about, or with {@link #of(Class, Level)} every record from a
 * lower level up (a class's INFO notices). {@link #close()} detaches it from the logger.
 */
public final class CapturedWarnings implements AutoCloseable {

  private final Logger logger;
  private final Level minimum;
  private final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Handler handler =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (record.getLevel().intValue() >= minimum.intValue()) {
            records.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private CapturedWarnings(Logger logger, Level minimum) {
    this.logger = logger;
    this.minimum = minimum;
    logger.addHandler(handler);
  }

  /** Starts capturing the warnings of the logger named after {@code type}. */
  public static CapturedWarnings of(Class<?> type) {
    return of(type, Level.WARNING);
  }

  /**
   * Starts capturing the records of {@code minimum} and above of the logger named after {@code
   * type}; levels below the logger's own (INFO unless configured) never reach it.
   */
  public static CapturedWarnings of(Class<?> type, Level minimum) {
    return new CapturedWarnings(Logger.getLogger(type.getName()), minimum);
  }

  /** Forgets the records captured so far (a test that checks one step at a time). */
  public void clear() {
    records.clear();
  }

  /** The warnings captured so far, oldest first; a live view that grows as more come. */
  public List<LogRecord> records() {
    return Collections.unmodifiableList(records);
  }

  /** Stops capturing; the records stay readable. */
  @Override
  public void close() {
    logger.removeHandler(handler);
  }
}
