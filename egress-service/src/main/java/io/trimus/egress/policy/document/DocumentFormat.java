package io.trimus.egress.policy.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.trimus.commons.problem.ProblemException;
import org.yaml.snakeyaml.LoaderOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The two forms a policy document travels in, JSON and YAML, read bounded and written back. The size is bounded before
 * any parsing (a longer body is refused unread when it declares its length, see the resource), nesting is bounded, duplicate keys are refused, and a YAML
 * document may not use anchors or aliases (no alias bombs, and no value that silently stands for another), nor hold a
 * second document.
 */
public enum DocumentFormat {
    /** {@code application/json}, the default. */
    JSON("application/json", new JsonFactory()),
    /** {@code application/yaml}; {@code application/x-yaml} and {@code text/yaml} are read as the same. */
    YAML("application/yaml", yamlFactory());

    /** Every media type of a YAML document this service accepts. */
    public static final List<String> YAML_TYPES = List.of("application/yaml", "application/x-yaml", "text/yaml");
    /** Deepest nesting a document may have; a valid one needs seven levels. */
    static final int MAX_DEPTH = 32;
    private static final int MAX_SHOWN = 200;

    private final String mediaType;
    private final ObjectMapper mapper;

    DocumentFormat(String mediaType, JsonFactory factory) {
        this.mediaType = mediaType;
        factory.setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
        factory.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.mapper = new ObjectMapper(factory).enable(SerializationFeature.INDENT_OUTPUT);
    }

    private static YAMLFactory yamlFactory() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(0);
        options.setAllowDuplicateKeys(false);
        options.setNestingDepthLimit(MAX_DEPTH);
        // a bound on its own, although the bytes read are bounded before: no document has more code points than bytes
        options.setCodePointLimit(DocumentBounds.MAX_BYTES);
        return YAMLFactory.builder().loaderOptions(options).build();
    }

    /** The media type this form is written as. */
    public String mediaType() {
        return mediaType;
    }

    /** The form of {@code type/subtype} (parameters such as charset ignored), if it is one of ours. */
    public static Optional<DocumentFormat> of(String mediaType) {
        if (mediaType == null) {
            return Optional.empty();
        }
        String bare = mediaType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (bare.equals(JSON.mediaType)) {
            return Optional.of(JSON);
        }
        return YAML_TYPES.contains(bare) ? Optional.of(YAML) : Optional.empty();
    }

    /**
     * The one document in {@code bytes}, which may hold at most {@code maxBytes} bytes; a 413 or 400 problem naming
     * the body otherwise.
     */
    public JsonNode read(byte[] bytes, int maxBytes) {
        if (bytes == null) {
            bytes = new byte[0];
        }
        if (bytes.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        try (JsonParser parser = parser(bytes)) {
            JsonNode document = mapper.readTree(parser);
            if (document == null || document.isMissingNode()) {
                throw ProblemException.invalid("body", "is required: a policy document {\"mode\": …, \"entries\": […],"
                        + " \"agents\": {…}}");
            }
            if (parser.nextToken() != null) {
                throw ProblemException.invalid("body", "must hold one document, not more");
            }
            return document;
        } catch (JsonProcessingException e) {
            throw ProblemException.invalid("body", "is not valid " + name() + ": " + shown(e));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The problem of a body longer than {@code maxBytes}: 413, naming the body and the bound. */
    public static ProblemException tooLarge(int maxBytes) {
        return new ProblemException(413, "Payload too large", "body must be at most " + maxBytes
                + " bytes (TRIMUS_EGRESS_POLICY_DOCUMENT_MAX_BYTES)", "body");
    }

    /** {@code document} in this form, indented. */
    public byte[] write(JsonNode document) {
        try {
            return mapper.writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a policy document could not be written as " + name(), e);
        }
    }

    private JsonParser parser(byte[] bytes) throws IOException {
        JsonParser parser = mapper.getFactory().createParser(bytes);
        if (!(parser instanceof YAMLParser yaml)) {
            return parser;
        }
        return new JsonParserDelegate(yaml) {
            @Override
            public com.fasterxml.jackson.core.JsonToken nextToken() throws IOException {
                com.fasterxml.jackson.core.JsonToken token = super.nextToken();
                if (yaml.isCurrentAlias() || yaml.getObjectId() != null) {
                    throw ProblemException.invalid("body", "must not use YAML anchors or aliases (line "
                            + yaml.currentLocation().getLineNr() + "): write every value out");
                }
                return token;
            }
        };
    }

    private static String shown(JsonProcessingException e) {
        String message = e.getOriginalMessage() == null ? "malformed" : e.getOriginalMessage().split("\n", 2)[0];
        if (message.length() > MAX_SHOWN) {
            message = message.substring(0, MAX_SHOWN) + "…";
        }
        var at = e.getLocation();
        return at == null ? message : message + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }
}
