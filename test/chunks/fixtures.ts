// Realistic inputs shared by the chunker tests.

export const ORDERS_OPENAPI_YAML = `openapi: 3.0.3
info:
  title: Acme Orders API
  version: 1.4.0
  description: Orders, payments and shipments for the Acme shop.
servers:
  - url: https://api.acme.example/v1
security:
  - bearerAuth: []
tags:
  - name: orders
  - name: payments
paths:
  /orders:
    get:
      operationId: listOrders
      summary: List orders
      tags: [orders]
      parameters:
        - name: status
          in: query
          schema:
            $ref: '#/components/schemas/OrderStatus'
        - $ref: '#/components/parameters/PageSize'
      responses:
        '200':
          description: A page of orders
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Order'
    # Creating an order reserves stock.
    post:
      operationId: createOrder
      summary: Create an order
      tags: [orders]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/CreateOrderRequest'
      responses:
        '201':
          description: Created
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Order'
        '400':
          $ref: '#/components/responses/BadRequest'
  /orders/{id}:
    parameters:
      - name: id
        in: path
        required: true
        schema:
          type: string
    get:
      operationId: getOrderById
      summary: Fetch one order
      description: Returns the order with its line items.
      tags: [orders]
      responses:
        '200':
          description: The order
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Order'
        '404':
          description: Not found
    delete:
      operationId: cancelOrder
      summary: Cancel an order
      security:
        - bearerAuth: []
        - apiKey: []
      responses:
        '204':
          description: Cancelled
  /payments/{paymentId}/refund:
    post:
      operationId: refundPayment
      tags: [payments]
      parameters:
        - name: paymentId
          in: path
          required: true
          schema:
            type: string
      security: []
      responses:
        '202':
          description: Refund accepted
components:
  parameters:
    PageSize:
      name: size
      in: query
      schema:
        type: integer
  responses:
    BadRequest:
      description: Invalid input
      content:
        application/json:
          schema:
            $ref: '#/components/schemas/Error'
  schemas:
    Order:
      type: object
      description: A customer order.
      required: [id, status]
      properties:
        id:
          type: string
        status:
          $ref: '#/components/schemas/OrderStatus'
        items:
          type: array
          items:
            $ref: '#/components/schemas/OrderItem'
    OrderItem:
      type: object
      properties:
        sku:
          type: string
        quantity:
          type: integer
    OrderStatus:
      type: string
      enum: [NEW, PAID, SHIPPED, CANCELLED]
    CreateOrderRequest:
      type: object
      properties:
        items:
          type: array
          items:
            $ref: '#/components/schemas/OrderItem'
    Error:
      type: object
      properties:
        message:
          type: string
  securitySchemes:
    bearerAuth:
      type: http
      scheme: bearer
    apiKey:
      type: apiKey
      in: header
      name: X-API-Key
`;

export const PETSTORE_SWAGGER_JSON = `{
  "swagger": "2.0",
  "info": {
    "title": "Petstore",
    "version": "1.0.0"
  },
  "host": "petstore.example",
  "basePath": "/v2",
  "paths": {
    "/pets": {
      "get": {
        "operationId": "findPets",
        "summary": "Finds pets by tag",
        "parameters": [
          { "name": "tags", "in": "query", "type": "array", "items": { "type": "string" } },
          { "name": "limit", "in": "query", "type": "integer" }
        ],
        "responses": {
          "200": {
            "description": "pet response",
            "schema": { "type": "array", "items": { "$ref": "#/definitions/Pet" } }
          }
        }
      },
      "post": {
        "operationId": "addPet",
        "parameters": [
          { "name": "pet", "in": "body", "required": true, "schema": { "$ref": "#/definitions/NewPet" } }
        ],
        "responses": {
          "200": { "description": "pet response", "schema": { "$ref": "#/definitions/Pet" } }
        },
        "security": [ { "petstore_auth": ["write:pets"] } ]
      }
    },
    "/pets/{id}": {
      "delete": {
        "operationId": "deletePet",
        "parameters": [ { "name": "id", "in": "path", "required": true, "type": "integer" } ],
        "responses": { "204": { "description": "pet deleted" } }
      }
    }
  },
  "definitions": {
    "Pet": {
      "type": "object",
      "required": ["id", "name"],
      "properties": {
        "id": { "type": "integer" },
        "name": { "type": "string" },
        "tag": { "type": "string" }
      }
    },
    "NewPet": {
      "type": "object",
      "properties": { "name": { "type": "string" } }
    }
  },
  "securityDefinitions": {
    "petstore_auth": { "type": "oauth2", "flow": "implicit", "authorizationUrl": "https://auth.example/oauth" }
  }
}
`;

export const APPLICATION_PROPERTIES = `# Acme shop configuration
spring.application.name=acme-shop
server.port=8080

# Database connection
spring.datasource.url=jdbc:postgresql://localhost:5432/shop
spring.datasource.username=shop
spring.datasource.password=secret
spring.datasource.driver-class-name=org.postgresql.Driver
spring.datasource.hikari.maximum-pool-size=20
spring.datasource.hikari.connection-timeout=30000

# JPA
spring.jpa.hibernate.ddl-auto=validate
spring.jpa.show-sql=false
spring.jpa.properties.hibernate.format_sql=true

! Logging levels
logging.level.root=INFO
logging.level.com.acme.shop=DEBUG
logging.level.org.hibernate.SQL=WARN

acme.payments.provider-url=https://payments.example/api \\
    /v2/charges
acme.payments.timeout=5s
`;

export const APPLICATION_YAML = `# Shared settings
server:
  port: 8080
  servlet:
    context-path: /shop

spring:
  application:
    name: acme-shop
  # Primary database
  datasource:
    url: jdbc:postgresql://localhost:5432/shop
    username: shop
    password: \${DB_PASSWORD}
    hikari:
      maximum-pool-size: 20
      connection-timeout: 30000
      pool-name: shop-pool
  jpa:
    hibernate:
      ddl-auto: validate
    show-sql: false
    properties:
      hibernate:
        format_sql: true
        jdbc:
          batch_size: 50
  kafka:
    bootstrap-servers: localhost:9092
    consumer:
      group-id: shop
      auto-offset-reset: earliest
    producer:
      acks: all
      retries: 3
  mail:
    host: smtp.acme.example
    port: 587
    properties:
      mail.smtp.auth: true
      mail.smtp.starttls.enable: true
  cache:
    type: caffeine
    caffeine:
      spec: maximumSize=500,expireAfterAccess=600s

management:
  endpoints:
    web:
      exposure:
        include: health,info,prometheus
---
spring:
  config:
    activate:
      on-profile: test
  datasource:
    url: jdbc:h2:mem:shop
`;

export const README_MD = `# Acme Shop

The Acme shop backend: orders, payments and shipments.

## Getting started

Install Java 21 and run the build:

\`\`\`bash
# this is not a heading
./mvnw spring-boot:run
\`\`\`

## Configuration

### Database

Set \`spring.datasource.url\` to your PostgreSQL instance.

### Messaging

Kafka topics are created on start.

Setext title
------------

Text under a setext heading.
`;

export const POM_XML = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.3.4</version>
    <relativePath/>
  </parent>
  <groupId>com.acme</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <name>Acme Shop</name>

  <properties>
    <java.version>21</java.version>
    <mapstruct.version>1.6.2</mapstruct.version>
  </properties>

  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-data-jpa</artifactId>
    </dependency>
    <!-- Database driver -->
    <dependency>
      <groupId>org.postgresql</groupId>
      <artifactId>postgresql</artifactId>
      <scope>runtime</scope>
    </dependency>
    <dependency>
      <groupId>org.mapstruct</groupId>
      <artifactId>mapstruct</artifactId>
      <version>\${mapstruct.version}</version>
    </dependency>
    <dependency>
      <groupId>org.projectlombok</groupId>
      <artifactId>lombok</artifactId>
      <optional>true</optional>
    </dependency>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-test</artifactId>
      <scope>test</scope>
    </dependency>
  </dependencies>

  <build>
    <plugins>
      <plugin>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-maven-plugin</artifactId>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <configuration>
          <release>21</release>
          <annotationProcessorPaths>
            <path>
              <groupId>org.mapstruct</groupId>
              <artifactId>mapstruct-processor</artifactId>
              <version>\${mapstruct.version}</version>
            </path>
          </annotationProcessorPaths>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;

export const SPRING_BEANS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<beans xmlns="http://www.springframework.org/schema/beans"
       xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">

    <!-- Order processing -->
    <bean id="orderService" class="com.acme.shop.order.OrderService">
        <property name="repository" ref="orderRepository"/>
        <property name="paymentGateway" ref="paymentGateway"/>
        <property name="maxItems" value="100"/>
    </bean>

    <bean id="orderRepository" class="com.acme.shop.order.JpaOrderRepository">
        <constructor-arg ref="entityManagerFactory"/>
        <property name="batchSize" value="50"/>
    </bean>

    <bean id="paymentGateway" class="com.acme.shop.payment.StripeGateway">
        <property name="apiKey" value="\${stripe.key}"/>
        <property name="timeoutMillis" value="5000"/>
        <property name="retryPolicy">
            <bean class="com.acme.shop.payment.ExponentialBackoff">
                <property name="maxAttempts" value="3"/>
            </bean>
        </property>
    </bean>
</beans>
`;
