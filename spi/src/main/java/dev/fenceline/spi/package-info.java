/**
 * Fenceline's contracts: value types ({@link dev.fenceline.spi.ResourceId}, {@link
 * dev.fenceline.spi.Epoch}, {@link dev.fenceline.spi.FencingToken}, {@link
 * dev.fenceline.spi.OperationId}, {@link dev.fenceline.spi.Receipt}), outcomes ({@link
 * dev.fenceline.spi.WriteOutcome}), and the SPIs adapters implement ({@link
 * dev.fenceline.spi.LeaseIssuer}, {@link dev.fenceline.spi.Destination}, {@link
 * dev.fenceline.spi.PointerStore}, {@link dev.fenceline.spi.BlobStore}, {@link
 * dev.fenceline.spi.AdapterFactory}). Depends on the JDK only.
 *
 * <p>Requirement IDs cited in the Javadoc ("R3", "R11 c") are defined in the repository's {@code
 * docs/requirements.md}.
 */
package dev.fenceline.spi;
