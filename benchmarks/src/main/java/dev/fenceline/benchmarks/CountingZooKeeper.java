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
package dev.fenceline.benchmarks;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A ZooKeeper handle that counts the requests sent through it (each one round trip to the
 * ensemble), the way the ZooKeeper adapter's {@code ZkRoundTripTest} counts them: the methods that
 * Curator and the adapter call are overridden. Several public overloads of ZooKeeper call each
 * other; a per-thread depth keeps such a call from being counted twice. Session pings are not
 * requests of the caller and are not counted.
 */
final class CountingZooKeeper extends ZooKeeper {

  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private final LongAdder requests;

  CountingZooKeeper(
      String connect,
      int sessionTimeout,
      Watcher watcher,
      boolean canBeReadOnly,
      ZKClientConfig config,
      LongAdder requests)
      throws IOException {
    super(connect, sessionTimeout, watcher, canBeReadOnly, config);
    this.requests = requests;
  }

  /** A call of the caller's (not one overload calling another) counts as one request. */
  private void begin() {
    int[] depth = DEPTH.get();
    if (depth[0]++ == 0) {
      requests.increment();
    }
  }

  private void end() {
    DEPTH.get()[0]--;
  }

  /** A request that may fail as ZooKeeper's synchronous calls do. */
  @FunctionalInterface
  private interface Request<T> {
    T send() throws KeeperException, InterruptedException;
  }

  /** Sends a synchronous request, counted once ({@link #begin}). */
  private <T> T counted(Request<T> request) throws KeeperException, InterruptedException {
    begin();
    try {
      return request.send();
    } finally {
      end();
    }
  }

  /** Sends an asynchronous request (its answer comes to a callback), counted once. */
  private void countedAsync(Runnable request) {
    begin();
    try {
      request.run();
    } finally {
      end();
    }
  }

  @Override
  public String create(String path, byte[] data, List<ACL> acl, CreateMode mode)
      throws KeeperException, InterruptedException {
    return counted(() -> super.create(path, data, acl, mode));
  }

  @Override
  public String create(String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat)
      throws KeeperException, InterruptedException {
    return counted(() -> super.create(path, data, acl, mode, stat));
  }

  @Override
  public String create(
      String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat, long ttl)
      throws KeeperException, InterruptedException {
    return counted(() -> super.create(path, data, acl, mode, stat, ttl));
  }

  @Override
  public void create(
      String path,
      byte[] data,
      List<ACL> acl,
      CreateMode mode,
      AsyncCallback.StringCallback callback,
      Object context) {
    countedAsync(() -> super.create(path, data, acl, mode, callback, context));
  }

  @Override
  public void create(
      String path,
      byte[] data,
      List<ACL> acl,
      CreateMode mode,
      AsyncCallback.Create2Callback callback,
      Object context) {
    countedAsync(() -> super.create(path, data, acl, mode, callback, context));
  }

  @Override
  public void create(
      String path,
      byte[] data,
      List<ACL> acl,
      CreateMode mode,
      AsyncCallback.Create2Callback callback,
      Object context,
      long ttl) {
    countedAsync(() -> super.create(path, data, acl, mode, callback, context, ttl));
  }

  @Override
  public void delete(String path, int version) throws InterruptedException, KeeperException {
    counted(
        () -> {
          super.delete(path, version);
          return null;
        });
  }

  @Override
  public void delete(
      String path, int version, AsyncCallback.VoidCallback callback, Object context) {
    countedAsync(() -> super.delete(path, version, callback, context));
  }

  @Override
  public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
    return counted(() -> super.multi(ops));
  }

  @Override
  public void multi(Iterable<Op> ops, AsyncCallback.MultiCallback callback, Object context) {
    countedAsync(() -> super.multi(ops, callback, context));
  }

  @Override
  public Stat exists(String path, Watcher watcher) throws KeeperException, InterruptedException {
    return counted(() -> super.exists(path, watcher));
  }

  @Override
  public Stat exists(String path, boolean watch) throws KeeperException, InterruptedException {
    return counted(() -> super.exists(path, watch));
  }

  @Override
  public void exists(
      String path, Watcher watcher, AsyncCallback.StatCallback callback, Object context) {
    countedAsync(() -> super.exists(path, watcher, callback, context));
  }

  @Override
  public void exists(
      String path, boolean watch, AsyncCallback.StatCallback callback, Object context) {
    countedAsync(() -> super.exists(path, watch, callback, context));
  }

  @Override
  public byte[] getData(String path, Watcher watcher, Stat stat)
      throws KeeperException, InterruptedException {
    return counted(() -> super.getData(path, watcher, stat));
  }

  @Override
  public byte[] getData(String path, boolean watch, Stat stat)
      throws KeeperException, InterruptedException {
    return counted(() -> super.getData(path, watch, stat));
  }

  @Override
  public void getData(
      String path, Watcher watcher, AsyncCallback.DataCallback callback, Object context) {
    countedAsync(() -> super.getData(path, watcher, callback, context));
  }

  @Override
  public void getData(
      String path, boolean watch, AsyncCallback.DataCallback callback, Object context) {
    countedAsync(() -> super.getData(path, watch, callback, context));
  }

  @Override
  public Stat setData(String path, byte[] data, int version)
      throws KeeperException, InterruptedException {
    return counted(() -> super.setData(path, data, version));
  }

  @Override
  public void setData(
      String path, byte[] data, int version, AsyncCallback.StatCallback callback, Object context) {
    countedAsync(() -> super.setData(path, data, version, callback, context));
  }

  @Override
  public List<String> getChildren(String path, Watcher watcher)
      throws KeeperException, InterruptedException {
    return counted(() -> super.getChildren(path, watcher));
  }

  @Override
  public List<String> getChildren(String path, boolean watch)
      throws KeeperException, InterruptedException {
    return counted(() -> super.getChildren(path, watch));
  }

  @Override
  public List<String> getChildren(String path, Watcher watcher, Stat stat)
      throws KeeperException, InterruptedException {
    return counted(() -> super.getChildren(path, watcher, stat));
  }

  @Override
  public List<String> getChildren(String path, boolean watch, Stat stat)
      throws KeeperException, InterruptedException {
    return counted(() -> super.getChildren(path, watch, stat));
  }

  @Override
  public void getChildren(
      String path, Watcher watcher, AsyncCallback.ChildrenCallback callback, Object context) {
    countedAsync(() -> super.getChildren(path, watcher, callback, context));
  }

  @Override
  public void getChildren(
      String path, boolean watch, AsyncCallback.ChildrenCallback callback, Object context) {
    countedAsync(() -> super.getChildren(path, watch, callback, context));
  }

  @Override
  public void getChildren(
      String path, Watcher watcher, AsyncCallback.Children2Callback callback, Object context) {
    countedAsync(() -> super.getChildren(path, watcher, callback, context));
  }

  @Override
  public void getChildren(
      String path, boolean watch, AsyncCallback.Children2Callback callback, Object context) {
    countedAsync(() -> super.getChildren(path, watch, callback, context));
  }

  @Override
  public void sync(String path) throws KeeperException, InterruptedException {
    counted(
        () -> {
          super.sync(path);
          return null;
        });
  }

  @Override
  public void sync(String path, AsyncCallback.VoidCallback callback, Object context) {
    countedAsync(() -> super.sync(path, callback, context));
  }
}
