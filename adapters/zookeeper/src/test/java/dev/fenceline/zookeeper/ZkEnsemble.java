package dev.fenceline.zookeeper;

import org.apache.curator.test.TestingCluster;

/** TEMPORARY stand-in until the fixture helper's version lands (no restartAll). */
final class ZkEnsemble implements AutoCloseable {
  private final TestingCluster cluster;

  private ZkEnsemble(TestingCluster cluster) {
    this.cluster = cluster;
  }

  static ZkEnsemble start() {
    try {
      TestingCluster cluster = new TestingCluster(3);
      cluster.start();
      return new ZkEnsemble(cluster);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  String connectString() {
    return cluster.getConnectString();
  }

  void restartAll() {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
