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
package dev.fenceline.zookeeper;

import dev.fenceline.cas.RecordNames;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.util.regex.Pattern;

/**
 * Where a {@link ZkStore} keeps its nodes under its root path ({@code <r>} is the resource ID with
 * every {@code /} replaced by {@code !}, so every resource is one node name and resources whose IDs
 * nest never share nodes):
 *
 * <ul>
 *   <li>{@code <root>/store}: the store's identity, created once (persistent);
 *   <li>{@code <root>/clock}: written before every issuer decision; the ensemble stamps the write
 *       with its time ({@code mtime}), which is the issuer's clock;
 *   <li>{@code <root>/leases/<r>}: per resource the lease and its epoch (persistent, never deleted,
 *       changed only by versioned writes);
 *   <li>{@code <root>/leases/<r>/holder}: an ephemeral node of the holder's session, created in the
 *       same transaction that grants the lease; the ensemble deletes it when the session expires;
 *   <li>{@code <root>/pointers/<r>}: per resource the control node: the registered epoch, its
 *       issuer and every destination name's current pointer (changed only by versioned writes);
 *   <li>{@code <root>/pointers/<r>/<name>:v:<20-digit version>}: every pointer version (immutable);
 *   <li>{@code <root>/pointers/<r>/<name>:o:<sha256 of the operation>}: every operation's receipt
 *       (immutable).
 * </ul>
 *
 * <p>Destination names are {@code [a-z0-9._-]}, so {@code :} cannot occur in them and a child's
 * name maps to exactly one (name, kind, key).
 */
final class ZkPaths {

  private static final Pattern ROOT = Pattern.compile("(/[A-Za-z0-9._-]+)+");

  private final String root;

  ZkPaths(String root) {
    this.root = validateRoot(root);
  }

  /**
   * Checks a root path: absolute, {@code /}-separated segments of {@code [A-Za-z0-9._-]}, no {@code
   * .} or {@code ..}, not ZooKeeper's own {@code /zookeeper}.
   *
   * @throws IllegalArgumentException naming the value and the fix
   */
  static String validateRoot(String root) {
    if (root == null
        || !ROOT.matcher(root).matches()
        || root.contains("/./")
        || root.contains("/../")
        || root.endsWith("/.")
        || root.endsWith("/..")
        || root.equals("/zookeeper")
        || root.startsWith("/zookeeper/")) {
      throw new IllegalArgumentException(
          "Cannot use ZooKeeper root path "
              + (root == null ? "null" : "\"" + root + "\"")
              + ": write an absolute path of segments from [A-Za-z0-9._-], such as /fenceline or"
              + " /apps/reports/fenceline (not /zookeeper, no trailing '/')");
    }
    return root;
  }

  String root() {
    return root;
  }

  String store() {
    return root + "/store";
  }

  String clock() {
    return root + "/clock";
  }

  String leases() {
    return root + "/leases";
  }

  String lease(ResourceId resource) {
    return leases() + "/" + RecordNames.segment(resource);
  }

  String holder(ResourceId resource) {
    return lease(resource) + "/holder";
  }

  String pointers() {
    return root + "/pointers";
  }

  String control(ResourceId resource) {
    return pointers() + "/" + RecordNames.segment(resource);
  }

  String version(String name, ResourceId resource, long version) {
    return control(resource) + "/" + name + ":v:" + "%020d".formatted(version);
  }

  String operation(String name, ResourceId resource, OperationId operation) {
    return control(resource) + "/" + name + ":o:" + RecordNames.operationDigest(operation);
  }
}
