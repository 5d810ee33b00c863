import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkTextFile } from '../../server/src/retrieval/chunks/index';
import { chunkXml, scanXml } from '../../server/src/retrieval/chunks/xml';
import { POM_XML, SPRING_BEANS_XML } from './fixtures';
import { assertWellFormed, bySymbol, lineOf } from './helpers';

const POM = '/repo/pom.xml';

test('pom.xml: coordinates, parent, properties, dependency groups and one chunk per plugin', () => {
  const chunks = chunkTextFile(POM, POM_XML);
  assertWellFormed(POM, POM_XML, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), [
    'project/modelVersion',
    'project/parent[spring-boot-starter-parent]',
    'project[shop]',
    'project/properties',
    'project/dependencies',
    'project/dependencies',
    'project/build/plugins/plugin[spring-boot-maven-plugin]',
    'project/build/plugins/plugin[maven-compiler-plugin]',
  ]);
  assert.ok(chunks.every((c) => c.kind === 'xml-element'));
  assert.equal(chunks[0].startLine, 0, 'the prolog and project start tag open the first chunk');
});

test('pom.xml: dependencies are packed near 500 characters with their comments', () => {
  const deps = chunkXml(POM, POM_XML).filter((c) => c.symbol === 'project/dependencies');
  assert.equal(deps[0].startLine, lineOf(POM_XML, '<dependencies>'));
  assert.match(deps[0].text, /<!-- Database driver -->\n {4}<dependency>\n {6}<groupId>org\.postgresql/);
  assert.equal(deps[1].endLine, lineOf(POM_XML, '</dependencies>'));
  assert.ok(deps.every((c) => c.text.length <= 520), deps.map((c) => c.text.length).join(','));
  assert.equal(deps[1].header, '<project xmlns="http://maven.apache.org/POM/4.0.0"\n  <dependencies>');
  assert.match(deps[0].description!, /^Maven pom\.xml of com\.acme:shop:1\.0\.0-SNAPSHOT: project dependencies\. dependency org\.springframework\.boot:spring-boot-starter-web/);
  assert.match(deps[0].description!, /org\.postgresql:postgresql \(runtime\)/);
  assert.match(deps[1].description!, /org\.springframework\.boot:spring-boot-starter-test \(test\)/);
});

test('pom.xml: a plugin chunk spans the plugin element with build/plugins as header', () => {
  const chunks = chunkXml(POM, POM_XML);
  const compiler = bySymbol(chunks, 'project/build/plugins/plugin[maven-compiler-plugin]');
  assert.equal(compiler.startLine, lineOf(POM_XML, '<groupId>org.apache.maven.plugins</groupId>') - 1);
  assert.equal(compiler.endLine, lineOf(POM_XML, '</plugins>'), 'the last plugin also takes the closing </plugins> line');
  assert.equal(compiler.header, '<project xmlns="http://maven.apache.org/POM/4.0.0"\n  <build>\n    <plugins>');
  assert.match(compiler.description!, /plugin org\.apache\.maven\.plugins:maven-compiler-plugin configured with release, annotationProcessorPaths/);
});

test('Spring XML: one chunk per bean with id and class in the description', () => {
  const path = '/repo/src/main/resources/applicationContext.xml';
  const chunks = chunkTextFile(path, SPRING_BEANS_XML);
  assertWellFormed(path, SPRING_BEANS_XML, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), ['beans/bean[orderService]', 'beans/bean[orderRepository]', 'beans/bean[paymentGateway]']);
  const repo = bySymbol(chunks, 'beans/bean[orderRepository]');
  assert.equal(repo.startLine, lineOf(SPRING_BEANS_XML, 'id="orderRepository"'));
  assert.equal(repo.endLine, repo.startLine + 3);
  assert.equal(repo.header, '<beans xmlns="http://www.springframework.org/schema/beans"');
  assert.equal(repo.description, 'XML applicationContext.xml: beans bean orderRepository. bean id orderRepository class com.acme.shop.order.JpaOrderRepository.');
  assert.match(bySymbol(chunks, 'beans/bean[orderService]').text, /<!-- Order processing -->/);
});

test('XML: a large generic element is split by its children', () => {
  const appenders = Array.from({ length: 6 }, (_, i) => `  <appender name="A${i}" class="ch.qos.logback.core.ConsoleAppender">\n    <encoder>\n      <pattern>%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n (${i})</pattern>\n    </encoder>\n  </appender>`);
  const loggers = Array.from({ length: 4 }, (_, i) => `  <logger name="com.acme.module${i}" level="DEBUG"/>`);
  const text = `<configuration>\n${appenders.join('\n')}\n${loggers.join('\n')}\n  <root level="INFO"><appender-ref ref="A0"/></root>\n</configuration>\n`;
  const chunks = chunkTextFile('/repo/logback.xml', text);
  assertWellFormed('/repo/logback.xml', text, chunks);
  assert.deepEqual(chunks.map((c) => c.symbol), [
    'configuration/appender[A0]',
    'configuration/appender[A1]',
    'configuration/appender[A2]',
    'configuration/appender[A3]',
    'configuration/appender[A4]',
    'configuration/appender[A5]',
    'configuration',
    'configuration/root',
  ]);
  const loggersChunk = chunks[6];
  assert.equal(loggersChunk.text.split('\n').length, 4, 'one-line siblings are packed');
  assert.match(loggersChunk.description!, /logger name com\.acme\.module0 level DEBUG/);
});

test('XML scanner: comments, CDATA, DOCTYPE, attributes with > and mismatched tags', () => {
  const roots = scanXml('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n<!-- <fake> -->\n<r a="1>2"><![CDATA[<not-a-tag>]]><c/><d>t</e></d><f>\n');
  assert.equal(roots.length, 1);
  assert.equal(roots[0].name, 'r');
  assert.equal(roots[0].attrs.a, '1>2');
  assert.deepEqual(roots[0].children.map((c) => c.name), ['c', 'd', 'f']);
  assert.equal(roots[0].children[1].text, 't');
});

test('XML: malformed input never throws and keeps exact ranges', () => {
  const cases = [
    POM_XML.slice(0, Math.floor(POM_XML.length / 2)),
    POM_XML.replace(/<\/dependency>/g, ''),
    POM_XML.replace('<build>', '<build'),
    '<<<>>> </a> <b c="unterminated>\n<d>\n',
    'not xml at all\njust text\n',
    '<a>' + 'x'.repeat(3000) + '</a>',
    '',
  ];
  for (const text of cases) {
    const chunks = chunkTextFile(POM, text);
    assertWellFormed(POM, text, chunks);
  }
  const text = 'plain\ntext\n'.repeat(30);
  const windows = chunkTextFile('/repo/notes.xml', text);
  assert.ok(windows.length >= 3 && windows.every((c) => c.endLine - c.startLine + 1 <= 20));
});
