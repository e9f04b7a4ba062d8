package io.trimus.testing;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * Where and how the broker and the database run: ports, directories, and whether their data outlives the run.
 *
 * @param dataDir   holds {@code kafka/} and {@code postgres/}
 * @param logDir    receives the children's output ({@code kafka-PORT.log}, {@code postgres-PORT.log})
 * @param freshData tests: start empty and delete the data at close; dev: keep it across starts
 */
public record InfraSettings(int kafkaPort, int controllerPort, int postgresPort, Path dataDir, Path logDir,
                            boolean freshData) {

    /** Random free ports, a throwaway data dir under the caller's {@code target/trimus-infra/}. */
    public static InfraSettings forTests() {
        List<Integer> ports = Ports.free(3);
        Path base = Path.of(System.getProperty("user.dir"), "target", "trimus-infra");
        Path dataDir = base.resolve("run-" + UUID.randomUUID().toString().substring(0, 8));
        return new InfraSettings(ports.get(0), ports.get(1), ports.get(2), dataDir, base, true);
    }

    /** Fixed ports and a data dir that keeps topics, offsets and tables between {@code ./trimus up} runs. */
    public static InfraSettings forDev(Path dataDir, int kafkaPort, int controllerPort, int postgresPort) {
        Path dir = dataDir.toAbsolutePath();
        return new InfraSettings(kafkaPort, controllerPort, postgresPort, dir, dir.resolve("logs"), false);
    }

    public Path kafkaDir() {
        return dataDir.resolve("kafka");
    }

    public Path postgresDir() {
        return dataDir.resolve("postgres");
    }

    /** Unpacked PostgreSQL binaries, shared by every run on the machine (unpacking costs seconds). */
    public Path postgresBinaries() {
        return Path.of(System.getProperty("java.io.tmpdir"), "trimus-embedded-pg");
    }
}
