package io.trimus.testing.k8s;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a service does on Kafka, read from its code: its messaging channels, declared in
 * {@code src/main/resources/application.properties} and by the {@code @Incoming}, {@code @Outgoing} and {@code @Channel}
 * annotations of {@code src/main/java}, each with its topic and, for a reader, its consumer group; and the classes
 * that build Kafka clients of their own, which no channel describes.
 */
public final class KafkaChannels {

    /** The value of a setting that is filled in at run time, e.g. {@code trimus-adapter-cancel-${trimus.docker.instance:adapter}}. */
    private static final String PLACEHOLDER = "${";
    private static final Pattern CHANNEL_KEY = Pattern.compile("mp\\.messaging\\.(incoming|outgoing)\\.(\"[^\"]+\"|[^.]+)\\.(.+)");
    private static final Pattern IN_OUT = Pattern.compile("@(Incoming|Outgoing)\\(\\s*([^)]+?)\\s*\\)");
    private static final Pattern CHANNEL = Pattern.compile("@Channel\\(\\s*([^)]+?)\\s*\\)(?:\\s*@\\w+(?:\\([^)]*\\))?)*\\s*(?:final\\s+)?([\\w.]+)\\s*<");
    private static final Set<String> EMITTERS = Set.of("Emitter", "MutinyEmitter");
    private static final Pattern OWN_CLIENT = Pattern.compile("new Kafka(Consumer|Producer)\\s*<|\\b(Admin|AdminClient|KafkaAdminClient)\\.create\\(");
    private static final Pattern STRING_CONSTANT = Pattern.compile("static final String (\\w+) = \"([^\"]+)\"");
    private static final Pattern LINE_COMMENT = Pattern.compile("(?m)(?<=\\s)//.*$");

    /**
     * One channel of a service.
     *
     * @param name     the channel's name
     * @param outgoing whether the service writes (true) or reads (false) the topic
     * @param topic    the Kafka topic
     * @param group    a reader's consumer group, or its fixed start when {@code anyGroupStartingWith} (null for a writer)
     * @param anyGroupStartingWith whether the group is completed at run time ({@code ${…}}), so only its start is known
     */
    public record Channel(String name, boolean outgoing, String topic, String group, boolean anyGroupStartingWith) {
    }

    private final Path module;
    private final Map<String, String> topicConstants;

    private KafkaChannels(Path module, Map<String, String> topicConstants) {
        this.module = module;
        this.topicConstants = topicConstants;
    }

    /** The Kafka use of the module at {@code module}; {@code topics} is io.trimus.events.Topics.java, whose constants name topics. */
    public static KafkaChannels of(Path module, Path topics) {
        Map<String, String> constants = new LinkedHashMap<>();
        STRING_CONSTANT.matcher(read(topics)).results().forEach(r -> constants.put(r.group(1), r.group(2)));
        return new KafkaChannels(module, constants);
    }

    /** The module's channels that are on, by name, in the order found (properties first, then annotations). */
    public List<Channel> channels() {
        Properties properties = properties();
        Map<String, Boolean> outgoing = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames()) {
            Matcher m = CHANNEL_KEY.matcher(key);
            if (m.matches()) {
                outgoing.put(unquote(m.group(2)), m.group(1).equals("outgoing"));
            }
        }
        for (Path file : javaFiles()) {
            String source = LINE_COMMENT.matcher(read(file)).replaceAll("");
            IN_OUT.matcher(source).results()
                    .forEach(r -> outgoing.put(resolve(r.group(2), source, file), r.group(1).equals("Outgoing")));
            CHANNEL.matcher(source).results()
                    .forEach(r -> outgoing.put(resolve(r.group(1), source, file), EMITTERS.contains(r.group(2))));
        }
        List<Channel> channels = new ArrayList<>();
        outgoing.forEach((name, out) -> {
            String prefix = "mp.messaging." + (out ? "outgoing" : "incoming") + ".";
            String key = prefix + (name.contains(".") ? "\"" + name + "\"" : name) + ".";
            if ("false".equals(properties.getProperty(key + "enabled"))) {
                return;
            }
            String topic = properties.getProperty(key + "topic", name);
            String group = out ? null : properties.getProperty(key + "group.id",
                    properties.getProperty("mp.messaging.connector.smallrye-kafka.group.id",
                            properties.getProperty("kafka.group.id", properties.getProperty("quarkus.application.name"))));
            boolean variable = group != null && group.contains(PLACEHOLDER);
            channels.add(new Channel(name, out, topic, variable ? group.substring(0, group.indexOf(PLACEHOLDER)) : group, variable));
        });
        return channels;
    }

    /** The module's classes (simple names) that create a Kafka consumer, producer or admin client themselves. */
    public List<String> ownClients() {
        return javaFiles().stream().filter(f -> OWN_CLIENT.matcher(read(f)).find())
                .map(f -> f.getFileName().toString().replace(".java", "")).sorted().toList();
    }

    private String resolve(String argument, String source, Path file) {
        if (argument.startsWith("\"")) {
            return unquote(argument);
        }
        String constant = argument.substring(argument.lastIndexOf('.') + 1);
        if (argument.startsWith("Topics.") && topicConstants.containsKey(constant)) {
            return topicConstants.get(constant);
        }
        Matcher local = Pattern.compile("\\b" + constant + "\\s*=\\s*(\"[^\"]+\"|Topics\\.\\w+)").matcher(source);
        if (local.find()) {
            return resolve(local.group(1), source, file);
        }
        throw new IllegalStateException("cannot tell the channel name " + argument + " of " + file + "; teach KafkaChannels");
    }

    private Properties properties() {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(module.resolve("src/main/resources/application.properties"))) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    private List<Path> javaFiles() {
        try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String unquote(String name) {
        return name.startsWith("\"") ? name.substring(1, name.length() - 1) : name;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
